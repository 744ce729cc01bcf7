/**
 * The RunService as a stage machine (decision 39), over the simulator: a user action the run's
 * stage does not allow is refused naming the stage, and nothing changes; the submission step's
 * gate (`beforeBatchLeaves`, for team claims) sees every batch just before it leaves, and a gate
 * that refuses stops the sending with its reason, sends nothing more, and the run carries on
 * from where it stopped once the gate lets it, paying every row exactly once.
 */
import { describe, expect, it } from 'vitest'
import { AppFailure } from '../../../../../../../shared/result'
import { csvBytes, sheetOf, simulatorPayouts } from './harness'
import { sandboxPerTest } from './sandbox-per-test'

const KEY = 'sk_test_run_stages'
const each = sandboxPerTest(KEY)

async function refusal(action: Promise<unknown>): Promise<AppFailure> {
  const failure = await action.then(
    () => null,
    (error: unknown) => error,
  )
  expect(failure).toBeInstanceOf(AppFailure)
  return failure as AppFailure
}

describe('the run as a stage machine', () => {
  it('refuses actions its stage does not allow, naming the stage, and changes nothing', async () => {
    const harness = await each.open()
    const { service } = harness
    const sheet = sheetOf(4)
    const view = await service.create({ result: sheet, bytes: csvBytes(sheet), currency: 'NGN' })
    expect(view.stage).toBe('resolving')
    // Nothing waits for a check in a run never sent.
    const recheck = await refusal(service.recheck(view.id))
    expect(recheck.code).toBe('conflict')
    expect(recheck.message).toContain('stage "resolving"')
    // Sending needs the review first.
    expect((await refusal(service.submit(view.id))).message).toContain('stage "resolving"')
    expect(service.view(view.id).stage).toBe('resolving')
    expect(service.view(view.id).batches).toEqual([])

    await service.toReview(view.id)
    await service.submit(view.id)
    await service.idle()
    expect(service.view(view.id).stage).toBe('completed')
    // A completed run cannot go back to its name checks or its review.
    expect((await refusal(service.startResolution(view.id))).message).toContain('stage "completed"')
    expect((await refusal(service.toReview(view.id))).message).toContain('stage "completed"')
    expect(service.view(view.id).stage).toBe('completed')
  })

  it('passes every batch through the gate before it leaves; a refusing gate stops the sending until it lets it', async () => {
    let open = false
    const asked: string[] = []
    const harness = await each.open({
      submitConcurrency: 1,
      beforeBatchLeaves: async (runId, reference) => {
        asked.push(`${runId} ${reference}`)
        if (!open && asked.length === 2) throw new Error('Another desk has claimed this batch')
      },
    })
    const { service } = harness
    const sheet = sheetOf(150) // three batches of 50
    const view = await service.create({ result: sheet, bytes: csvBytes(sheet), currency: 'NGN' })
    await service.toReview(view.id)
    await service.submit(view.id)
    await service.idle()

    const stopped = service.view(view.id)
    expect(stopped.stage).toBe('attention')
    expect(stopped.message).toBe('Stopped: Another desk has claimed this batch')
    expect(asked).toEqual([
      `${view.id} ${stopped.batches[0]!.reference}`,
      `${view.id} ${stopped.batches[1]!.reference}`,
    ])
    expect(stopped.batches.map((b) => b.state)).toEqual(['accepted', 'planned', 'planned'])
    // Only the first batch left.
    expect((await simulatorPayouts(each.sandbox.url, KEY)).length).toBe(50)

    open = true
    await service.recheck(view.id)
    await service.idle()
    expect(service.view(view.id).stage).toBe('completed')
    const paid = (await simulatorPayouts(each.sandbox.url, KEY)).map((p) => p.reference)
    expect(paid.sort()).toEqual(sheet.items.map((i) => i.reference).sort())
  })
})

describe("what a run allows, as main's summaries and views say and its checks refuse (decision 096)", () => {
  it('a run in review with records in the journal offers Archive, not Delete, and a Delete asked anyway is refused', async () => {
    const harness = await each.open()
    const { service, journal } = harness
    const sheet = sheetOf(3)
    const view = await service.create({ result: sheet, bytes: csvBytes(sheet), currency: 'NGN' })
    await service.toReview(view.id)
    expect(service.view(view.id).can).toMatchObject({ delete: true, archive: false, edit: true, submit: true })

    // A copy of a team run written again under its id: its earlier batch is in the journal.
    await journal.record({
      reference: `${view.id}-B0001`,
      kind: 'bulk_batch',
      profileId: view.profileId,
      mode: view.mode,
      runId: view.id,
      request: { batch_reference: `${view.id}-B0001` },
    })
    const listed = service.list().find((run) => run.id === view.id)!
    expect(listed.stage).toBe('review')
    expect(listed.can).toMatchObject({ delete: false, archive: true })
    expect(service.view(view.id).can).toMatchObject({ delete: false, archive: true })
    const refused = await refusal(service.remove(view.id))
    expect(refused.code).toBe('conflict')
    expect(refused.message).toContain('cannot be deleted, only archived')
    expect(service.list().some((run) => run.id === view.id)).toBe(true)
    // What it offers, it does.
    expect((await service.archive(view.id, true)).can).toMatchObject({ archive: false, unarchive: true })
  })

  it('name checks running offer Cancel, not Delete; once cancelled the run can be deleted', async () => {
    const harness = await each.open({ resolveConcurrency: 1 })
    const { service } = harness
    const sheet = sheetOf(40)
    const view = await service.create({ result: sheet, bytes: csvBytes(sheet), currency: 'NGN' })
    const checking = await service.startResolution(view.id)
    expect(checking.can).toMatchObject({ cancelChecks: true, delete: false, checkNames: false, review: false })
    expect((await refusal(service.remove(view.id))).message).toContain('cancel the checks')
    const cancelled = await service.cancel(view.id)
    expect(cancelled.can).toMatchObject({ cancelChecks: false, delete: true, checkNames: true })
    expect(await service.remove(view.id)).toEqual({ deleted: view.id })
  })

  it('name checks that have just finished (in review, their last state being written) are waited for by Check names, as by Send', async () => {
    const harness = await each.open()
    const { service } = harness
    const sheet = sheetOf(30)
    const view = await service.create({ result: sheet, bytes: csvBytes(sheet), currency: 'NGN' })
    await service.startResolution(view.id)
    // The stage says review from the moment the checks end; the step still writes the rows and state.
    while (service.view(view.id).stage !== 'review') await new Promise((resolve) => setImmediate(resolve))
    expect(service.view(view.id).can.checkNames).toBe(false)
    const again = await service.startResolution(view.id)
    expect(again.stage).toBe('resolving')
    await service.idle()
    expect(service.view(view.id).stage).toBe('review')
    await service.submit(view.id)
    await service.idle()
    expect(service.view(view.id).stage).toBe('completed')
  })
})
