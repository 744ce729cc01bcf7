/**
 * The words of a bulk run's stages and of a team run's states, in one place (decision 096): the
 * screen's labels, the run summary's line, and the phrase main's refusals use ("This run is in
 * review"). Main and the renderer read them from here; nothing else spells a stage out.
 */
import type { RunStage } from '../domain/bulk-run'
import type { TeamRunState } from '../domain/team'

/** A bulk run's stage as the runs list and the run's bar show it. */
export const RUN_STAGE_LABELS: Readonly<Record<RunStage, string>> = {
  resolving: 'Name checks',
  review: 'Review',
  submitting: 'Sending',
  monitoring: 'Paying',
  completed: 'Completed',
  attention: 'Needs attention',
}

/** A bulk run's stage on its summary document: says whether anything was sent. */
export const RUN_STAGE_DOCUMENT_WORDS: Readonly<Record<RunStage, string>> = {
  resolving: 'Checking names (nothing sent)',
  review: 'In review (nothing sent)',
  submitting: 'Sending batches',
  monitoring: 'Sent: waiting for outcomes',
  completed: 'Completed',
  attention: 'Needs attention',
}

/** A bulk run's stage inside a sentence ("This run is being sent"). */
export const RUN_STAGE_PHRASES: Readonly<Record<RunStage, string>> = {
  resolving: 'at its name checks',
  review: 'in review',
  submitting: 'being sent',
  monitoring: 'sent and being followed',
  completed: 'completed',
  attention: 'waiting for a check',
}

/** A team run's state as the team's runs list shows it. */
export const TEAM_RUN_STATE_LABELS: Readonly<Record<TeamRunState, string>> = {
  draft: 'Draft',
  awaiting_approval: 'Awaiting approval',
  approved: 'Approved',
  rejected: 'Rejected',
  releasing: 'Releasing',
  completed: 'Paid',
}
