/**
 * The stages of a bulk run and the one table of the moves between them: which stage may follow
 * which, and what causes each move (a user's action or the end of a step). Every change of
 * `state.stage` goes through `moveTo`, so a move the table does not hold is refused with an
 * AppFailure that names the stage the run is in, and the table is the whole story of a run's life:
 *
 *   resolving -> review -> submitting -> monitoring -> completed
 *        ^---------'            |  ^          |
 *                               v  |          v
 *                            attention <------'
 */
import type { RunStage } from '../../../../../shared/domain/bulk-run'
import { AppFailure } from '../../../../../shared/result'
import { RUN_STAGE_PHRASES } from '../../../../../shared/words/run-stages'

/** What moves a run: a user's action (named after the RunService method) or the end of a step. */
export type StageCause =
  /** startResolution: the user asks for the name checks (again). */
  | 'check_names'
  /** resumeAll: name checks that were running when the app stopped carry on. */
  | 'resume_checks'
  /** The name checks finished every row. */
  | 'checks_finished'
  /** toReview: the user leaves the name checks, finished or not. */
  | 'open_review'
  /** submit: the user sends the run (the plan of batches is written). */
  | 'send'
  /** Every batch has the service's answer. */
  | 'batches_settled'
  /** Some batch could not be confirmed, or a step stopped on an error. */
  | 'needs_attention'
  /** recheck: the user asks the service again about the batches that could not be confirmed. */
  | 'recheck'
  /** resumeAll: a run that was sending (or waiting for a check) carries on after a restart. */
  | 'resume_sending'
  /** Every item of every batch is final. */
  | 'all_final'

/** The one transition table: for each stage, the stages that may follow it and what moves it there. */
export const STAGE_TRANSITIONS: Readonly<Record<RunStage, Readonly<Partial<Record<RunStage, readonly StageCause[]>>>>> =
  {
    resolving: {
      resolving: ['check_names', 'resume_checks'],
      review: ['checks_finished', 'open_review'],
    },
    review: {
      resolving: ['check_names'],
      review: ['open_review'],
      submitting: ['send'],
    },
    submitting: {
      monitoring: ['batches_settled'],
      attention: ['needs_attention'],
      submitting: ['resume_sending'],
    },
    monitoring: {
      completed: ['all_final'],
      attention: ['needs_attention'],
      monitoring: ['resume_sending'],
    },
    attention: {
      submitting: ['recheck', 'resume_sending'],
    },
    completed: {},
  }

/** What a cause asks for, as the error says it ("cannot check names"). */
const CAUSE_WORDS: Readonly<Record<StageCause, string>> = {
  check_names: 'check names',
  resume_checks: 'carry on its name checks',
  checks_finished: 'finish its name checks',
  open_review: 'go back to review',
  send: 'be sent',
  batches_settled: 'move on to following its batches',
  needs_attention: 'stop for a check',
  recheck: 'be checked again with the service',
  resume_sending: 'carry on sending',
  all_final: 'complete',
}

/** Whether `cause` may move a run from `from` to `to`. */
export function canMove(from: RunStage, to: RunStage, cause: StageCause): boolean {
  return STAGE_TRANSITIONS[from][to]?.includes(cause) ?? false
}

/** Why the table does not hold this move, naming the stage the run is in; null when it does. */
export function moveRefusal(from: RunStage, to: RunStage, cause: StageCause): string | null {
  return canMove(from, to, cause)
    ? null
    : `This run is ${RUN_STAGE_PHRASES[from]} (stage "${from}"): it cannot ${CAUSE_WORDS[cause]} (to stage "${to}").`
}

/** Refuses a move the table does not hold, naming the stage the run is in. */
export function assertMove(from: RunStage, to: RunStage, cause: StageCause): void {
  const refusal = moveRefusal(from, to, cause)
  if (refusal) throw new AppFailure('conflict', refusal, { stage: from, to, cause })
}

/** Moves `state` to `to` if the table allows it; refuses otherwise (the state is left as it was). */
export function moveTo(state: { stage: RunStage }, to: RunStage, cause: StageCause): void {
  assertMove(state.stage, to, cause)
  state.stage = to
}
