/**
 * Every figure of a run the desk shows is a figure of its records (decision 164): after a random
 * sequence of changes through every public path of the run service (edits, undo and redo, rows
 * left out and included, the payee book's flags, confirmations, name acknowledgements, questions
 * answered, name-check answers, who pays the fees, submission's answers, monitoring's settlements, a retry run), and at
 * every progress the screen is told while the run is sent and followed, the counts, the total, the
 * tally (amounts and fees to the kobo) and the send readiness equal a count of the rows again.
 */
import { describe, expect, it } from 'vitest'
import type { RunView } from '../../../../../../../shared/domain/bulk-run'
import { needsNameAcknowledgement } from '../../../../../../../shared/domain/bulk-run'
import { isHeld } from '../../../../../../../shared/bulk/payee-holds'
import { tallyRows } from '../../../../../../../shared/bulk/run-tally'
import { sendReadiness } from '../../../../../../../shared/bulk/send-readiness'
import { countRows, totalsOf } from '../../../../../../../electron/main/services/bulk/run/run-rows'
import type { RunService } from '../../../../../../../electron/main/services/bulk/run/run-service'
import { csvBytes, sheetOf } from './harness'
import { sandboxPerTest } from './sandbox-per-test'
import { CHANGED, NEW, SHARED } from './sample-tripwires'
import { Random } from '../../../../../../soak/random'

const KEY = 'sk_test_figures_truth'
const each = sandboxPerTest(KEY, 150)

/** The run's figures as the desk shows them, against a count of its rows as they are now. */
function expectFiguresOfRecords(service: RunService, runId: string, where: string): void {
  const view: RunView = service.view(runId)
  const rows = service.rows(runId)
  const state = service.stateOf(runId)
  expect(view.counts, where).toEqual(countRows(rows))
  expect(view.totals, where).toEqual(totalsOf(state, rows))
  expect(view.tally, where).toEqual(tallyRows(rows, state.merchantBearsCost))
  if (view.readiness) expect(view.readiness, where).toEqual(sendReadiness(rows, state.mode))
  const listed = service.list().find((summary) => summary.id === runId)!
  expect(listed.counts, where).toEqual(view.counts)
  expect(listed.total, where).toEqual(view.totals.amount)
}

/** One random change before Send, through the service's public face; a refusal is a change too (none). */
async function changeBeforeSend(service: RunService, runId: string, random: () => number): Promise<string> {
  const rows = service.rows(runId)
  const pick = (): number => Math.floor(random() * rows.length)
  const choice = Math.floor(random() * 11)
  try {
    switch (choice) {
      case 0: {
        const amount =
          random() < 0.15 ? 'ten naira' : `${1 + Math.floor(random() * 90_000)}.${random() < 0.5 ? '00' : '75'}`
        await service.editRow(runId, pick(), 'amount', amount)
        return `amount ${amount}`
      }
      case 1:
        // A new account: the row's name is checked again at once.
        await service.editRow(runId, pick(), 'account_number', String(2_000_000_000 + Math.floor(random() * 1e6)))
        return 'account'
      case 2: {
        const indexes = [pick(), pick()]
        await service.setExcluded(runId, indexes, random() < 0.6)
        return `excluded ${indexes.join(',')}`
      }
      case 3:
        await (random() < 0.6 ? service.undo(runId) : service.redo(runId))
        return 'undo or redo'
      case 4: {
        const flagged = [pick(), pick(), pick()].map((index, n) => ({
          index,
          tripwires: n === 0 ? [CHANGED, NEW] : n === 1 ? [SHARED] : [NEW],
          payeeKey: `id:p${index}`,
        }))
        await service.setTripwires(runId, random() < 0.2 ? [] : flagged)
        return 'flags'
      }
      case 5: {
        const held = rows.filter(isHeld)
        if (held.length === 0) return 'nothing held'
        await service.confirmPayee(runId, held[0]!.index, { method: 'in_person' })
        return 'confirmed'
      }
      case 6: {
        const indexes = rows.filter(needsNameAcknowledgement).map((row) => row.index)
        await service.acknowledgeNames(runId, indexes.slice(0, 1 + Math.floor(random() * 3)))
        return 'acknowledged'
      }
      case 7:
        await service.startResolution(runId)
        await service.idle()
        return 'name checks'
      case 8:
        await service.setOptions(runId, { merchantBearsCost: random() < 0.5 })
        return 'fee payer'
      case 9: {
        // "Pay this second payment too": the rows it frees have their names checked at once.
        const asked = rows.filter((row) => row.errors.some((error) => error.code === 'same_payment_again'))
        if (asked.length === 0) return 'no question'
        await service.answerQuestion(runId, [asked[0]!.index], 'same_payment_again')
        return 'answered'
      }
      default:
        await service.toReview(runId)
        return 'review'
    }
  } catch (error) {
    return `refused: ${(error as Error).message.slice(0, 60)}`
  }
}

describe('the figures of a run are the figures of its records', () => {
  it('after random changes through every public path, and at every progress while it is sent and followed', async () => {
    let watched: { service: RunService; runId: string } | null = null
    let checkedWhileSending = 0
    const { service } = await each.open({
      // While batches are answered and rows settle: the figures at that moment, against the rows.
      onProgress: () => {
        if (!watched) return
        expectFiguresOfRecords(watched.service, watched.runId, 'while sending')
        checkedWhileSending++
      },
    })
    for (const seed of [11, 12]) {
      const seeded = new Random(seed)
      const random = () => seeded.next()
      const sheet = sheetOf(24, new Set([3, 9, 17]), `S${seed}`)
      // Rows the importer asks about (a second payment to the same account): Send waits for an answer.
      sheet.errors = [5, 12, 20].map((i) => ({
        row: sheet.items[i]!.row,
        column: 'amount',
        code: 'same_payment_again',
        message: 'The same payment again',
      }))
      const run = await service.create({ result: sheet, bytes: csvBytes(sheet), currency: 'NGN' })
      expectFiguresOfRecords(service, run.id, `seed ${seed}, created`)
      for (let step = 1; step <= 30; step++) {
        const what = await changeBeforeSend(service, run.id, random)
        expectFiguresOfRecords(service, run.id, `seed ${seed}, step ${step}: ${what}`)
      }
      // Sent: submission's answers and monitoring's settlements, checked as the screen is told them.
      await service.toReview(run.id).catch(() => undefined)
      watched = { service, runId: run.id }
      await service.submit(run.id)
      await service.idle()
      watched = null
      expectFiguresOfRecords(service, run.id, `seed ${seed}, settled`)
      const settled = service.view(run.id)
      expect(settled.stage).toBe('completed')
      expect(settled.tally.places.paid.rows).toBeGreaterThan(0)

      // The rows not paid, prepared again: a retry run, changed, sent and followed in its turn.
      const retry = await service.retryFailed(run.id, { leftOutByHand: true, withErrors: true }).catch(() => null)
      if (!retry) continue
      expectFiguresOfRecords(service, retry.id, `seed ${seed}, retry created`)
      for (let step = 1; step <= 10; step++) {
        const what = await changeBeforeSend(service, retry.id, random)
        expectFiguresOfRecords(service, retry.id, `seed ${seed}, retry step ${step}: ${what}`)
      }
      await service.toReview(retry.id).catch(() => undefined)
      watched = { service, runId: retry.id }
      await service.submit(retry.id).catch(() => undefined)
      await service.idle()
      watched = null
      expectFiguresOfRecords(service, retry.id, `seed ${seed}, retry settled`)
      expectFiguresOfRecords(service, run.id, `seed ${seed}, retried run`)
    }
    expect(checkedWhileSending).toBeGreaterThan(5)
  }, 120_000)
})
