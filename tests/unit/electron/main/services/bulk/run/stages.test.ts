/**
 * The run's one transition table (decision 39): every legal move is allowed with its cause, every
 * other move is refused with an AppFailure that names the stage the run is in, and the state is
 * left as it was.
 */
import { describe, expect, it } from 'vitest'
import { RUN_STAGES, type RunStage } from '../../../../../../../shared/domain/bulk-run'
import { AppFailure } from '../../../../../../../shared/result'
import {
  canMove,
  moveTo,
  STAGE_TRANSITIONS,
  type StageCause,
} from '../../../../../../../electron/main/services/bulk/run/stages'

const LEGAL: Array<[RunStage, RunStage, StageCause]> = [
  ['resolving', 'resolving', 'check_names'],
  ['resolving', 'resolving', 'resume_checks'],
  ['resolving', 'review', 'checks_finished'],
  ['resolving', 'review', 'open_review'],
  ['review', 'resolving', 'check_names'],
  ['review', 'review', 'open_review'],
  ['review', 'submitting', 'send'],
  ['submitting', 'submitting', 'resume_sending'],
  ['submitting', 'monitoring', 'batches_settled'],
  ['submitting', 'attention', 'needs_attention'],
  ['monitoring', 'monitoring', 'resume_sending'],
  ['monitoring', 'completed', 'all_final'],
  ['monitoring', 'attention', 'needs_attention'],
  ['attention', 'submitting', 'recheck'],
  ['attention', 'submitting', 'resume_sending'],
]

const CAUSES: StageCause[] = [
  'check_names',
  'resume_checks',
  'checks_finished',
  'open_review',
  'send',
  'batches_settled',
  'needs_attention',
  'recheck',
  'resume_sending',
  'all_final',
]

const key = (from: RunStage, to: RunStage, cause: StageCause): string => `${from} -> ${to} (${cause})`

describe('the run stage machine', () => {
  it('holds exactly the legal moves, each with its cause', () => {
    const table: string[] = []
    for (const from of RUN_STAGES)
      for (const [to, causes] of Object.entries(STAGE_TRANSITIONS[from]))
        for (const cause of causes ?? []) table.push(key(from, to as RunStage, cause))
    expect(table.sort()).toEqual(LEGAL.map(([f, t, c]) => key(f, t, c)).sort())
  })

  it.each(LEGAL)('moves %s -> %s on %s', (from, to, cause) => {
    const state = { stage: from }
    moveTo(state, to, cause)
    expect(state.stage).toBe(to)
  })

  it('refuses every other move, naming the stage, and leaves the run where it was', () => {
    const legal = new Set(LEGAL.map(([f, t, c]) => key(f, t, c)))
    let refused = 0
    for (const from of RUN_STAGES)
      for (const to of RUN_STAGES)
        for (const cause of CAUSES) {
          if (legal.has(key(from, to, cause))) continue
          expect(canMove(from, to, cause)).toBe(false)
          const state = { stage: from }
          let failure: unknown
          try {
            moveTo(state, to, cause)
          } catch (error) {
            failure = error
          }
          expect(failure, key(from, to, cause)).toBeInstanceOf(AppFailure)
          expect((failure as AppFailure).code).toBe('conflict')
          expect((failure as AppFailure).message).toContain(`stage "${from}"`)
          expect((failure as AppFailure).details).toEqual({ stage: from, to, cause })
          expect(state.stage).toBe(from)
          refused++
        }
    expect(refused).toBe(RUN_STAGES.length * RUN_STAGES.length * CAUSES.length - LEGAL.length)
  })

  it('a completed run goes nowhere', () => {
    for (const to of RUN_STAGES) for (const cause of CAUSES) expect(canMove('completed', to, cause)).toBe(false)
  })
})
