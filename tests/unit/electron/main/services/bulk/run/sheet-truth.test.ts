/**
 * What a run says about its sheet, and what it lets be paid, over the simulator (decisions 48,
 * 50): a retry prepares the sheet's failed rows and, when asked, the rows left out by hand, with
 * their name checks carried (the retry's report names them) and the edits of the earlier run in
 * its report; a row fixed after the name checks is checked at once; a person's Send is refused
 * while any row to send is unchecked or a no-match name is unacknowledged, in the Sandbox too; and
 * a refused key stops the name checks and is said as the Payouts screen says it.
 */
import { describe, expect, it } from 'vitest'
import { accountNameFor } from '../../../../../../../electron/sandbox/catalog'
import { reportTable } from '../../../../../../../electron/main/services/bulk/run/run-report'
import { tableToCsv } from '../../../../../../../electron/main/services/export/table-export'
import type { LookupEndpoints } from '../../../../../../../electron/main/services/api/lookups'
import { AppFailure } from '../../../../../../../shared/result'
import { csvBytes, sheetOf } from './harness'
import { sandboxPerTest } from './sandbox-per-test'

const KEY = 'sk_test_sheet_truth'
const each = sandboxPerTest(KEY)

/** A sheet whose names are the bank's (every check a match), rows in `failing` at a bank that fails. */
function matchingSheet(count: number, failing: Set<number>, tag: string) {
  const sheet = sheetOf(count, failing, tag)
  for (const item of sheet.items) item.customer_name = accountNameFor(item.account_number)
  return sheet
}

describe("a run's sheet, prepared again", () => {
  it('prepares the failed rows, and the rows left out by hand only when asked, with their checks and edits', async () => {
    const { service } = await each.open()
    // Six rows: rows 1 and 4 go to a bank that fails; row 1's amount is edited; row 5 is left out by hand.
    const sheet = matchingSheet(6, new Set([1, 4]), 'MAR')
    const run = await service.create({ result: sheet, bytes: csvBytes(sheet), currency: 'NGN' })
    await service.editRow(run.id, 1, 'amount', '1111.00')
    await service.setExcluded(run.id, [5], true)
    await service.startResolution(run.id)
    await service.idle()
    await service.submit(run.id, {}, { namesChecked: true })
    await service.idle()
    const first = service.view(run.id)
    expect(first.outcome).toMatchObject({ allPaid: false, tone: 'warning', short: '3 of 6 paid' })
    expect(first.outcome!.headline).toBe(
      '3 of 6 rows paid (3,006.50 NGN); 2 failed (2,115.50 NGN); 1 left out by hand (1,005.50 NGN).',
    )
    expect(first.sheetStatus.prepare).toEqual({
      runId: run.id,
      failed: { rows: 2, amount: '2115.50' },
      byHand: { rows: 1, amount: '1005.50' },
      errors: { rows: 0, amount: '0.00' },
      notSent: { rows: 0, amount: '0.00' },
      held: { rows: 0, amount: '0.00' },
    })
    // The failed rows' fees, as the service named them, are not reported: they were not charged.
    const firstReport = tableToCsv(
      reportTable(service.stateOf(run.id), service.rows(run.id), await service.changeLog(run.id)),
    ).data
    const failedRow = service.rows(run.id)[1]!
    expect(failedRow.fee).toBeDefined()
    const failedLine = firstReport.split('\r\n').find((line) => line.includes('MAR-row-000002'))!
    expect(failedLine).toContain(',failed,MAR-row-000002,')
    expect(failedLine).not.toContain(`,${failedRow.fee},`)

    // Asked without the row left out by hand: only the failed rows, under new references.
    const retry = await service.retryFailed(run.id)
    expect(service.rows(retry.id).map((r) => r.item.reference)).toEqual(['MAR-row-000002-R1', 'MAR-row-000005-R1'])
    // Their name checks came with them, and the retry's report says them and the first run's edit.
    expect(service.rows(retry.id).map((r) => r.nameCheck)).toEqual(['match', 'match'])
    const retryLines = tableToCsv(
      reportTable(service.stateOf(retry.id), service.rows(retry.id), [], await service.earlierChanges(retry.id)),
    ).data.split('\r\n')
    expect(retryLines[1]).toContain(',Match,')
    expect(retryLines[1]).toContain(`in run ${run.id}: `)
    expect(retryLines[1]).toContain('Amount ""1001.50"" → ""1111.00"" (edit)')
    // The first run says it was retried, and that its sheet is being prepared in the retry.
    expect(service.view(run.id).sheetStatus.openRun).toEqual({ id: retry.id, stage: 'review' })
    expect(service.view(run.id).outcome!.short).toBe('3 of 6 paid, retried')

    // In the retry both rows go to a bank that pays, and are sent.
    await service.editRow(retry.id, 0, 'bank_code', '058')
    await service.editRow(retry.id, 1, 'bank_code', '033')
    await service.submit(retry.id, {}, { namesChecked: true })
    await service.idle()
    const second = service.view(retry.id)
    expect(second.tally.places.paid.rows).toBe(2)
    // Every row of the retry is paid, but not every row of the sheet: never "All".
    expect(second.sheetStatus.unpaid).toEqual({ rows: 1, amount: '1005.50' })
    expect(second.outcome!.allPaid).toBe(false)
    expect(second.outcome!.headline).toBe(
      '2 rows of this run paid (2,115.50 NGN). The sheet still has 1 row unpaid (1,005.50 NGN).',
    )
    expect(second.sheetStatus.prepare).toEqual({
      runId: retry.id,
      failed: { rows: 0, amount: '0.00' },
      byHand: { rows: 1, amount: '1005.50' },
      errors: { rows: 0, amount: '0.00' },
      notSent: { rows: 0, amount: '0.00' },
      held: { rows: 0, amount: '0.00' },
    })
    await expect(service.retryFailed(retry.id)).rejects.toThrow(/No row of this run has failed/)

    // Asked for, the row left out in the first run comes back under its own reference (never
    // sent), unchecked (it was left out before the names were checked): Send waits for its check.
    const third = await service.retryFailed(retry.id, { leftOutByHand: true })
    expect(service.rows(third.id).map((r) => [r.item.reference, r.resolution])).toEqual([
      ['MAR-row-000006', 'unchecked'],
    ])
    expect(third.readiness).toMatchObject({ unchecked: { count: 1, sheetRows: [7] } })
    // Its report tells how it was left out in the first run.
    const thirdLines = tableToCsv(
      reportTable(service.stateOf(third.id), service.rows(third.id), [], await service.earlierChanges(third.id)),
    ).data.split('\r\n')
    expect(thirdLines[1]).toContain(`in run ${run.id}: `)
    expect(thirdLines[1]).toContain('""included"" → ""excluded""')
  })

  it('prepares, when asked, the rows not sent because of errors, with their errors, to be fixed there before Send', async () => {
    const { service } = await each.open()
    const sheet = matchingSheet(4, new Set(), 'JUN')
    // Row 3: an e-mail without its domain. Row 5: what row 2 pays again, another narration, never answered.
    sheet.items[1]!.customer_email = 'payee-at-example.com'
    const first = sheet.items[0]!
    sheet.items[3] = { ...first, row: 5, reference: 'JUN-row-000004', narration: 'Another invoice' }
    const run = await service.create({
      result: {
        ...sheet,
        errors: [
          {
            row: 3,
            column: 'customer_email',
            code: 'customer_email_invalid',
            message: 'customer_email is not a valid e-mail',
          },
          {
            row: 5,
            column: 'amount',
            code: 'same_payment_again',
            message: `Pays ${first.amount} NGN to the same account as row 2. A second payment? Pay both, or leave this row out.`,
          },
        ],
      },
      bytes: csvBytes(sheet),
      currency: 'NGN',
    })
    await service.startResolution(run.id)
    await service.idle()
    await service.submit(run.id, {}, { namesChecked: true })
    await service.idle()
    const sent = service.view(run.id)
    expect(sent.tally.places.error).toEqual({ rows: 2, amount: '2002.00' })
    // A sent run cannot be changed: its rows in error are offered to a new run, where they can be.
    expect(sent.sheetStatus.prepare).toMatchObject({ errors: { rows: 2, amount: '2002.00' } })
    await expect(service.retryFailed(run.id)).rejects.toThrow(
      /not sent because of errors are prepared only when you ask/,
    )

    const retry = await service.retryFailed(run.id, { withErrors: true })
    // Under their own references (never sent), with their errors: the second payment is asked again.
    expect(service.rows(retry.id).map((r) => [r.item.reference, r.errors.map((e) => e.code)])).toEqual([
      ['JUN-row-000002', ['customer_email_invalid']],
      ['JUN-row-000004', ['same_payment_again']],
    ])
    expect(retry.counts.errors).toBe(2)
    // Fixed and answered there: checked at once, and sent.
    await service.editRow(retry.id, 0, 'customer_email', 'payee@example.com')
    await service.answerQuestion(retry.id, [1], 'same_payment_again')
    expect(service.view(retry.id).readiness).toMatchObject({ refusal: null, rows: 2 })
    await service.submit(retry.id, {}, { namesChecked: true })
    await service.idle()
    expect(service.view(retry.id).outcome!.headline).toBe(
      'All 2 rows paid (2,002.00 NGN). Every row of the sheet is now paid.',
    )
  })

  it("refuses to prepare a run's rows while any of them is still being paid", async () => {
    const { service } = await each.open({ pollMs: 60_000 })
    const sheet = matchingSheet(3, new Set([1]), 'APR')
    const run = await service.create({ result: sheet, bytes: csvBytes(sheet), currency: 'NGN' })
    await service.toReview(run.id)
    await service.submit(run.id)
    await expect(service.retryFailed(run.id)).rejects.toMatchObject({ code: 'conflict' })
  })
})

describe('nothing is paid unchecked', () => {
  it('checks a row fixed after the name checks at once, and refuses a Send with rows unchecked', async () => {
    const { service } = await each.open()
    const sheet = matchingSheet(4, new Set(), 'MAY')
    // Row 2 is in error when the names are checked (an e-mail without its domain).
    sheet.items[2]!.customer_email = 'payee-at-example.com'
    const run = await service.create({
      result: {
        ...sheet,
        errors: [
          { row: 4, column: 'customer_email', code: 'email_invalid', message: 'customer_email is not a valid e-mail' },
        ],
      },
      bytes: csvBytes(sheet),
      currency: 'NGN',
    })
    await service.startResolution(run.id)
    await service.idle()
    expect(service.rows(run.id)[2]!.resolution).toBe('unchecked')
    // Fixed: checked at once, with the edit.
    await service.editRow(run.id, 2, 'customer_email', 'payee@example.com')
    expect(service.rows(run.id)[2]).toMatchObject({ resolution: 'matched', nameCheck: 'match' })
    expect(service.view(run.id).readiness).toMatchObject({ refusal: null })
  })

  it("refuses a person's Send in the Sandbox with the count of rows unchecked, and a no-match name unacknowledged", async () => {
    const { service } = await each.open()
    const sheet = sheetOf(3, new Set(), 'JUN')
    const run = await service.create({ result: sheet, bytes: csvBytes(sheet), currency: 'NGN' })
    await service.toReview(run.id)
    const refused = await service.submit(run.id, {}, { namesChecked: true }).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(AppFailure)
    expect((refused as AppFailure).message).toMatch(
      /^3 rows' account names have not been checked \(sheet rows 2, 3, 4\)/,
    )
    expect((refused as AppFailure).details).toMatchObject({ unchecked: 3 })
    expect(service.view(run.id).batches).toEqual([])
    // "Check them": the names are the Sandbox's made-up ones, so no match: acknowledged, then sent.
    await service.startResolution(run.id)
    await service.idle()
    await expect(service.submit(run.id, {}, { namesChecked: true })).rejects.toThrow(
      /^3 names do not match the bank's \(sheet rows 2, 3, 4\)/,
    )
    await service.acknowledgeNames(run.id, [0, 1, 2])
    await service.submit(run.id, {}, { namesChecked: true })
    await service.idle()
    expect(service.view(run.id).outcome).toMatchObject({ allPaid: true, headline: 'All 3 rows paid (3,004.50 NGN).' })
  })

  it('stops the name checks at a refused key and says so, leaving every row unchecked', async () => {
    let asked = 0
    const { service } = await each.open({
      secretKey: 'sk_test_not_this_profiles_key',
      resolveConcurrency: 2,
      wrapApi: (api) => ({
        ...api,
        lookups: {
          ...api.lookups,
          resolveBank: (input: Parameters<LookupEndpoints['resolveBank']>[0]) => {
            asked++
            return api.lookups.resolveBank(input)
          },
        },
      }),
    })
    const sheet = sheetOf(30, new Set(), 'JUL')
    const run = await service.create({ result: sheet, bytes: csvBytes(sheet), currency: 'NGN' })
    await service.startResolution(run.id)
    await service.idle()
    const view = service.view(run.id)
    expect(view.stage).toBe('review')
    expect(view.nameCheckError?.code).toBe('unauthorized')
    expect(view.nameCheckError?.message).toMatch(/refused this profile's secret key \(HTTP 401/)
    expect(view.readiness!.unchecked.count).toBe(30)
    // Stopped at the first answers, not asked thirty times.
    expect(asked).toBeLessThanOrEqual(2)
    // Asked again, the error is the new checks' own.
    await service.startResolution(run.id)
    await service.idle()
    expect(service.view(run.id).nameCheckError?.code).toBe('unauthorized')
  })
})
