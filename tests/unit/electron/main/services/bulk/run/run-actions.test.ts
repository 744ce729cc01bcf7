/**
 * What a run allows, per stage and per what was sent (decision 096): the `can` every summary and
 * view carries, and the refusals main's own checks throw, from one module. A run in its name
 * checks or review with records in the journal (a team run's copy written again under its id)
 * cannot be deleted, only archived, though its stage says "nothing sent".
 */
import { describe, expect, it } from 'vitest'
import { RUN_ACTIONS, RUN_STAGES } from '../../../../../../../shared/domain/bulk-run'
import type { RunAction, RunStage } from '../../../../../../../shared/domain/bulk-run'
import { AppFailure } from '../../../../../../../shared/result'
import { assertCan, refusalOf, runActions } from '../../../../../../../electron/main/services/bulk/run/run-actions'
import type { RunFacts } from '../../../../../../../electron/main/services/bulk/run/run-actions'

function facts(stage: RunStage, more: Partial<Omit<RunFacts, 'journalRecords'>> & { journal?: number } = {}): RunFacts {
  const { journal = 0, ...rest } = more
  const sentStage = stage !== 'resolving' && stage !== 'review'
  return {
    id: 'BR1',
    stage,
    batches: sentStage ? 2 : 0,
    archived: false,
    working: false,
    journalRecords: () => journal,
    ...rest,
  }
}

/** The actions allowed, by name, in a fixed order. */
function allowed(run: RunFacts): RunAction[] {
  const can = runActions(run)
  return RUN_ACTIONS.filter((action) => can[action])
}

describe('what a run allows', () => {
  it('carries an answer for every action the screens offer', () => {
    for (const stage of RUN_STAGES)
      expect(Object.keys(runActions(facts(stage))).sort()).toEqual([...RUN_ACTIONS].sort())
  })

  it('allows, at rest, per stage: what each stage offers and nothing else', () => {
    const byStage = Object.fromEntries(RUN_STAGES.map((stage) => [stage, allowed(facts(stage))]))
    expect(byStage).toEqual({
      resolving: ['checkNames', 'review', 'edit', 'delete'],
      review: ['checkNames', 'edit', 'submit', 'share', 'export', 'delete'],
      submitting: ['export'],
      monitoring: ['export'],
      attention: ['recheck', 'export', 'archive'],
      completed: ['retry', 'repeat', 'export', 'archive'],
    })
  })

  it('while a step runs: name checks can be cancelled, not deleted; nothing else starts', () => {
    expect(allowed(facts('resolving', { working: true }))).toEqual(['cancelChecks', 'edit'])
    expect(refusalOf(facts('resolving', { working: true }), 'delete')).toBe(
      'Run BR1 is checking names: cancel the checks, then delete it.',
    )
    expect(allowed(facts('attention', { working: true }))).toEqual(['export', 'archive'])
    expect(refusalOf(facts('attention', { working: true }), 'recheck')).toBe('This run is already working.')
  })

  it('a run with journal records cannot be deleted, whatever its stage says, and can be archived', () => {
    for (const stage of ['resolving', 'review'] as const) {
      const run = facts(stage, { journal: 3 })
      expect(runActions(run).delete, stage).toBe(false)
      expect(runActions(run).archive, stage).toBe(true)
      expect(refusalOf(run, 'delete')).toBe(
        'Run BR1 has payouts sent: it cannot be deleted, only archived (kept on disk and in the journal).',
      )
    }
    // Nothing sent and nothing journaled: deleted, not archived.
    expect(refusalOf(facts('review'), 'archive')).toBe(
      'Nothing of run BR1 was sent: delete it instead of archiving it.',
    )
  })

  it('a run still being paid is neither deleted nor archived; an archived run is only shown again', () => {
    for (const stage of ['submitting', 'monitoring'] as const) {
      expect(refusalOf(facts(stage), 'archive')).toBe('Run BR1 is still being paid: archive it once it has finished.')
      expect(runActions(facts(stage)).delete).toBe(false)
    }
    const archived = facts('completed', { archived: true })
    expect(runActions(archived).archive).toBe(false)
    expect(runActions(archived).unarchive).toBe(true)
    expect(runActions(facts('completed')).unarchive).toBe(false)
  })

  it('rows change only before sending; the refusal says so', () => {
    for (const stage of RUN_STAGES)
      expect(runActions(facts(stage)).edit, stage).toBe(stage === 'resolving' || stage === 'review')
    expect(refusalOf(facts('monitoring'), 'edit')).toBe('Rows cannot change once the run has been sent.')
  })

  it("main's check throws the same reason the screen is not offered the action for", () => {
    const run = facts('completed')
    expect(() => assertCan(run, 'submit')).toThrow(AppFailure)
    try {
      assertCan(run, 'submit')
    } catch (error) {
      expect((error as AppFailure).code).toBe('conflict')
      expect((error as AppFailure).message).toBe(refusalOf(run, 'submit'))
      expect((error as AppFailure).message).toContain('stage "completed"')
    }
    expect(() => assertCan(facts('review'), 'submit')).not.toThrow()
  })

  it('reads the journal once for all the actions, and not at all once batches are planned', () => {
    let reads = 0
    const counted = (stage: RunStage): RunFacts => ({ ...facts(stage), journalRecords: () => (reads++, 0) })
    runActions(counted('review'))
    expect(reads).toBe(1)
    reads = 0
    runActions(counted('completed'))
    expect(reads).toBe(0)
  })
})
