/**
 * What a run allows now (decision 096): for each action a screen offers, null when it may be
 * done, or the reason it may not. The same answer is sent as the `can` of every run summary and
 * view, and is what RunService's own checks throw, so a screen never offers what main refuses
 * and main never refuses what a screen offers. Stage rules come from the one transition table
 * (stages.ts); the rest from what the run holds: planned batches, records in the journal, a long
 * step running, the archived flag.
 *
 * A repeat of an action already done (a double click on Send, Delete or Cancel) is answered by
 * the action itself as the first one was, before it asks here: `can` says what is worth offering,
 * not what a second click would break. What is checked about the content when an action is asked
 * (rows to send, a typed total, names acknowledged) is answered by the action with its reasons,
 * and shown beforehand by the review's readiness.
 */
import type { RunAction, RunActions, RunStage } from '../../../../../shared/domain/bulk-run'
import { RUN_ACTIONS } from '../../../../../shared/domain/bulk-run'
import { AppFailure } from '../../../../../shared/result'
import { moveRefusal } from './stages'

/** What the rules read of a run. */
export interface RunFacts {
  id: string
  stage: RunStage
  /** Batches planned (a plan is written just before the first of them is journaled). */
  batches: number
  archived: boolean
  /** A long step of the run is under way (name checks, sending, monitoring). */
  working: boolean
  /** Records of the run in the journal; asked only when no batch is planned. */
  journalRecords(): number
}

/** Stages in which the run is working on the service's side: it cannot be put away then. */
const STILL_PAYING: ReadonlySet<RunStage> = new Set(['submitting', 'monitoring'])

/** Anything of the run may have reached the service: planned batches, or journal records of it. */
export function anythingSent(facts: RunFacts): boolean {
  return facts.batches > 0 || facts.journalRecords() > 0
}

const ALREADY_WORKING = 'This run is already working.'

/** Why `action` may not be done with the run now; null when it may. */
export function refusalOf(facts: RunFacts, action: RunAction): string | null {
  const { id, stage, working } = facts
  switch (action) {
    case 'checkNames':
      return moveRefusal(stage, 'resolving', 'check_names') ?? (working ? ALREADY_WORKING : null)
    case 'cancelChecks':
      if (stage !== 'resolving') return 'Only name checks can be cancelled.'
      return working ? null : 'No name checks are running.'
    case 'review':
      if (working) return 'Wait for the name checks to finish, or cancel them.'
      if (stage === 'review') return 'This run is in review already.'
      return moveRefusal(stage, 'review', 'open_review')
    case 'edit':
      return stage === 'resolving' || stage === 'review' ? null : 'Rows cannot change once the run has been sent.'
    case 'submit':
      return moveRefusal(stage, 'submitting', 'send')
    case 'share':
      return stage === 'review' ? null : 'Only a run in review is submitted for approval (check its names first).'
    case 'recheck':
      return moveRefusal(stage, 'submitting', 'recheck') ?? (working ? ALREADY_WORKING : null)
    case 'retry':
      return stage === 'completed'
        ? null
        : 'Rows of this run are still being paid or checked: wait until every row has its outcome, then prepare what is unpaid.'
    case 'repeat':
      return stage === 'completed'
        ? null
        : 'Only a run whose every row has its outcome is repeated: wait until it has finished.'
    case 'export':
      return stage === 'resolving' ? 'Check the account names first: the report is made from the checked rows.' : null
    case 'delete':
      if (anythingSent(facts))
        return `Run ${id} has payouts sent: it cannot be deleted, only archived (kept on disk and in the journal).`
      return working ? `Run ${id} is checking names: cancel the checks, then delete it.` : null
    case 'archive':
      if (facts.archived) return `Run ${id} is archived already.`
      if (!anythingSent(facts)) return `Nothing of run ${id} was sent: delete it instead of archiving it.`
      return STILL_PAYING.has(stage) ? `Run ${id} is still being paid: archive it once it has finished.` : null
    case 'unarchive':
      return facts.archived ? null : `Run ${id} is not archived.`
  }
}

/** Every action's answer, as the run's `can`. */
export function runActions(facts: RunFacts): RunActions {
  let records: number | undefined
  // The journal is read once for all the actions that ask it.
  const once: RunFacts = { ...facts, journalRecords: () => (records ??= facts.journalRecords()) }
  return Object.fromEntries(RUN_ACTIONS.map((action) => [action, refusalOf(once, action) === null])) as Record<
    RunAction,
    boolean
  >
}

/** Refuses `action` with its reason when the run does not allow it now. */
export function assertCan(facts: RunFacts, action: RunAction): void {
  const refusal = refusalOf(facts, action)
  if (refusal !== null) throw new AppFailure('conflict', refusal, { action, stage: facts.stage })
}
