/**
 * What the desk says about a run's money (decision 48), as rules: every row counted in one place
 * with its exact amount; fees and charges of the paid rows only (a failed row's fee, as the service
 * names it, is not a charge); "All rows paid" only when every row of the run and of its sheet is
 * paid; a sheet sent in several runs says what of it is still unpaid and what can be prepared.
 */
import { describe, expect, it } from 'vitest'
import type { RunRow } from '../../../../shared/domain/bulk-run'
import { RowTally, chargedFeeOf, tallyRows } from '../../../../shared/bulk/run-tally'
import { runOutcomeOf, sheetStatusOf, sheetStatusOfOneRun } from '../../../../shared/bulk/run-outcome'
import { sendReadiness } from '../../../../shared/bulk/send-readiness'

function row(index: number, overrides: Partial<RunRow> = {}, amount = '100.00', sheetRow = index + 2): RunRow {
  return {
    index,
    item: {
      row: sheetRow,
      reference: `MAR-${String(sheetRow).padStart(4, '0')}`,
      amount,
      bank_code: '058',
      account_number: `01234567${String(index).padStart(2, '0')}`,
      customer_name: `Payee ${index}`,
      customer_email: `p${index}@example.com`,
      narration: 'March',
    },
    excluded: false,
    errors: [],
    warnings: [],
    resolution: 'matched',
    nameCheck: 'match',
    status: 'success',
    ...overrides,
  }
}

/**
 * A month-end run with every trap: two paid (fees read for one), one failed with the fee the
 * service named for it, one still paying, one with an error never sent (an unreadable amount),
 * and rows left out by hand, as a repeat and as already paid.
 */
const MONTH_END: RunRow[] = [
  row(0, { fee: '12.50' }, '1250.00'),
  row(1, {}, '800.25'),
  row(2, { status: 'failed', fee: '30.00', message: 'Invalid account' }, '3000.00'),
  row(3, { status: 'processing' }, '99.99'),
  row(
    4,
    {
      status: 'not_sent',
      errors: [{ row: 6, column: 'amount', code: 'amount_invalid', message: 'not a number' }],
    },
    'twelve',
  ),
  row(5, { status: 'not_sent', excluded: true, excludedWhy: 'by_hand' }, '400.00'),
  row(6, { status: 'not_sent', excluded: true, excludedWhy: 'duplicate_in_sheet' }, '1250.00'),
  row(7, { status: 'not_sent', excluded: true, excludedWhy: 'already_paid' }, '75.00'),
]

describe('the tally of a run', () => {
  it('counts every row in one place with its exact amount, and charges only the paid rows', () => {
    const recipientsPay = tallyRows(MONTH_END, false)
    expect(recipientsPay.rows).toBe(8)
    expect(recipientsPay.places).toEqual({
      paid: { rows: 2, amount: '2050.25' },
      failed: { rows: 1, amount: '3000.00' },
      open: { rows: 1, amount: '99.99' },
      not_sent: { rows: 0, amount: '0.00' },
      // Counted, not added: its amount is not one.
      error: { rows: 1, amount: '0.00' },
      // None held for a confirmation of its account (decision 124).
      held: { rows: 0, amount: '0.00' },
      by_hand: { rows: 1, amount: '400.00' },
      duplicate_in_sheet: { rows: 1, amount: '1250.00' },
      already_paid: { rows: 1, amount: '75.00' },
      not_in_new_sheet: { rows: 0, amount: '0.00' },
    })
    // The failed row's 30.00 is the service's word, not a charge.
    expect(recipientsPay.fees).toEqual({ total: '12.50', rows: 1, unread: 1 })
    expect(recipientsPay.charged).toBe('2050.25')
    // When we pay the fees, what the paid rows took includes the fees read.
    expect(tallyRows(MONTH_END, true).charged).toBe('2062.75')
    expect(MONTH_END.map(chargedFeeOf)).toEqual([
      '12.50',
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ])
  })

  it('gives the same figures a slice at a time as in one pass', () => {
    const sliced = new RowTally(true)
    for (const r of MONTH_END.slice(0, 3)) sliced.add(r)
    for (const r of MONTH_END.slice(3)) sliced.add(r)
    expect(sliced.finish()).toEqual(tallyRows(MONTH_END, true))
  })
})

describe('the headline of a finished run', () => {
  it('a retry with 8 rows paid and 51 left out never says all paid, and counts every row', () => {
    const rows = [
      ...Array.from({ length: 8 }, (_, i) => row(i, { fee: '10.00' })),
      ...Array.from({ length: 51 }, (_, i) =>
        row(8 + i, { status: 'not_sent', excluded: true, excludedWhy: 'by_hand' }),
      ),
    ]
    const outcome = runOutcomeOf(tallyRows(rows, false), 'NGN')
    expect(outcome.allPaid).toBe(false)
    expect(outcome.headline).not.toMatch(/all/i)
    expect(outcome.headline).toBe('8 of 59 rows paid (800.00 NGN); 51 left out by hand (5,100.00 NGN).')
    expect(outcome.tone).toBe('warning')
    expect(outcome.short).toBe('8 of 59 paid')
  })

  it('a run with an error row never sent is not all paid', () => {
    const rows = [
      row(0),
      row(1),
      row(2, {
        status: 'not_sent',
        errors: [{ row: 4, column: 'bank_code', code: 'bank_code_unknown', message: 'x' }],
      }),
    ]
    const outcome = runOutcomeOf(tallyRows(rows, false), 'NGN')
    expect(outcome.allPaid).toBe(false)
    expect(outcome.headline).toBe('2 of 3 rows paid (200.00 NGN); 1 not sent because of errors (100.00 NGN).')
  })

  it('counts every place of the month-end run, left out by each reason', () => {
    expect(runOutcomeOf(tallyRows(MONTH_END, false), 'NGN').headline).toBe(
      '2 of 8 rows paid (2,050.25 NGN); 1 failed (3,000.00 NGN); 1 still being paid (99.99 NGN); ' +
        '1 not sent because of errors (0.00 NGN); 3 left out: 1 by hand (400.00 NGN), ' +
        '1 as repeats of other rows of the sheet (1,250.00 NGN), 1 as already paid earlier (75.00 NGN).',
    )
  })

  it('says all rows paid only when every row is paid', () => {
    const outcome = runOutcomeOf(tallyRows([row(0), row(1, {}, '1500.50')], false), 'NGN')
    expect(outcome).toEqual({
      tone: 'success',
      headline: 'All 2 rows paid (1,600.50 NGN).',
      short: 'All 2 paid',
      allPaid: true,
    })
    expect(
      runOutcomeOf(tallyRows([row(0, { status: 'failed' }), row(1, { status: 'failed' })], false), 'NGN').tone,
    ).toBe('error')
  })
})

describe('a sheet sent in several runs', () => {
  // March: 39 rows all failed at the bank; the retry paid 8 of them and 31 were left out by hand.
  const original = Array.from({ length: 39 }, (_, i) => row(i, { status: 'failed', fee: '5.00' }))
  const retry = Array.from({ length: 39 }, (_, i) =>
    i < 8
      ? row(i, { fee: '5.00' }, '100.00', i + 2)
      : row(i, { status: 'not_sent', excluded: true, excludedWhy: 'by_hand' }, '100.00', i + 2),
  )
  const chain = [
    { id: 'BR-original', stage: 'completed' as const, rows: original },
    { id: 'BR-retry', stage: 'completed' as const, rows: retry },
  ]

  it('says what of the sheet is still unpaid, and what the last run can prepare', () => {
    const sheet = sheetStatusOf(chain)
    expect(sheet.rows).toBe(39)
    expect(sheet.places.paid).toEqual({ rows: 8, amount: '800.00' })
    expect(sheet.places.failed).toEqual({ rows: 0, amount: '0.00' })
    expect(sheet.unpaid).toEqual({ rows: 31, amount: '3100.00' })
    expect(sheet.prepare).toEqual({
      runId: 'BR-retry',
      failed: { rows: 0, amount: '0.00' },
      byHand: { rows: 31, amount: '3100.00' },
      errors: { rows: 0, amount: '0.00' },
      notSent: { rows: 0, amount: '0.00' },
      held: { rows: 0, amount: '0.00' },
    })
    expect(sheet.openRun).toBeNull()
  })

  it('the original, once retried, is neither green nor "all paid"; the retry says the sheet is unpaid', () => {
    const sheet = sheetStatusOf(chain)
    const first = runOutcomeOf(tallyRows(original, false), 'NGN', { sheet, retried: true })
    expect(first.tone).toBe('error')
    expect(first.allPaid).toBe(false)
    expect(first.short).toBe('0 of 39 paid, retried')
    expect(first.headline).toBe(
      '0 of 39 rows paid (0.00 NGN); 39 failed (3,900.00 NGN); the rows not paid went to a retry run. ' +
        'The sheet still has 31 rows unpaid (3,100.00 NGN).',
    )
    const second = runOutcomeOf(tallyRows(retry, false), 'NGN', { sheet })
    expect(second.allPaid).toBe(false)
    expect(second.headline).toContain('The sheet still has 31 rows unpaid (3,100.00 NGN).')
  })

  it('a retry that paid all its rows says so without "All" while the sheet has rows unpaid', () => {
    const paidRetry = Array.from({ length: 8 }, (_, i) => row(i, {}, '100.00', i + 2))
    const byHandFirst = [
      ...Array.from({ length: 8 }, (_, i) => row(i, { status: 'failed' }, '100.00', i + 2)),
      row(8, { status: 'not_sent', excluded: true, excludedWhy: 'by_hand' }, '250.00', 10),
    ]
    const sheet = sheetStatusOf([
      { id: 'A', stage: 'completed', rows: byHandFirst },
      { id: 'B', stage: 'completed', rows: paidRetry },
    ])
    const outcome = runOutcomeOf(tallyRows(paidRetry, false), 'NGN', { sheet })
    expect(outcome.allPaid).toBe(false)
    expect(outcome.headline).toBe(
      '8 rows of this run paid (800.00 NGN). The sheet still has 1 row unpaid (250.00 NGN).',
    )
    // Once that row is paid too, the whole sheet is: now "All".
    const last = [row(0, {}, '250.00', 10)]
    const whole = sheetStatusOf([
      { id: 'A', stage: 'completed', rows: byHandFirst },
      { id: 'B', stage: 'completed', rows: paidRetry },
      { id: 'C', stage: 'completed', rows: last },
    ])
    expect(runOutcomeOf(tallyRows(last, false), 'NGN', { sheet: whole })).toMatchObject({
      allPaid: true,
      tone: 'success',
      headline: 'All 1 row paid (250.00 NGN). Every row of the sheet is now paid.',
    })
    // The first run of that sheet now says so too, without turning green.
    expect(runOutcomeOf(tallyRows(byHandFirst, false), 'NGN', { sheet: whole, retried: true }).tone).toBe('info')
  })

  it('offers nothing to prepare while the last run is not finished, and names it', () => {
    const sheet = sheetStatusOf([chain[0]!, { ...chain[1]!, stage: 'review' }])
    expect(sheet.prepare).toBeNull()
    expect(sheet.openRun).toEqual({ id: 'BR-retry', stage: 'review' })
  })

  it('a run never retried is its own sheet, from its tally', () => {
    const sheet = sheetStatusOfOneRun({ id: 'X', stage: 'completed' }, tallyRows(MONTH_END, false))
    expect(sheet).toEqual(sheetStatusOf([{ id: 'X', stage: 'completed', rows: MONTH_END }]))
    // Unpaid: failed, still paying, the error and the rows left out by hand or as repeats; not "already paid".
    expect(sheet.unpaid).toEqual({ rows: 5, amount: '4749.99' })
    expect(sheet.prepare).toEqual({
      runId: 'X',
      failed: { rows: 1, amount: '3000.00' },
      byHand: { rows: 1, amount: '400.00' },
      // The row not sent because of its error can be prepared too, to be fixed there (decision 71).
      errors: { rows: 1, amount: '0.00' },
      notSent: { rows: 0, amount: '0.00' },
      held: { rows: 0, amount: '0.00' },
    })
  })

  it('rows never sent, stopped by a limit or held for a confirmation, are unpaid and prepared', () => {
    const rows = [
      row(0, {}, '100.00', 2),
      // Its batch stopped by a daily limit (decision 127).
      row(1, { status: 'not_sent' }, '200.00', 3),
      // Held: its account changed and nobody confirmed it (decision 124).
      row(
        2,
        { status: 'not_sent', tripwires: [{ kind: 'account_changed' }] as unknown as RunRow['tripwires'] },
        '300.00',
        4,
      ),
    ]
    const sheet = sheetStatusOf([{ id: 'S', stage: 'completed', rows }])
    expect(sheet.places.held).toEqual({ rows: 1, amount: '300.00' })
    expect(sheet.unpaid).toEqual({ rows: 2, amount: '500.00' })
    // Offered, though nothing failed and nothing was left out by hand.
    expect(sheet.prepare).toEqual({
      runId: 'S',
      failed: { rows: 0, amount: '0.00' },
      byHand: { rows: 0, amount: '0.00' },
      errors: { rows: 0, amount: '0.00' },
      notSent: { rows: 1, amount: '200.00' },
      held: { rows: 1, amount: '300.00' },
    })
    expect(runOutcomeOf(tallyRows(rows, false), 'NGN', { sheet }).allPaid).toBe(false)
  })
})

describe('whether the names allow Send', () => {
  it('refuses unchecked rows and unacknowledged no-match names, naming the sheet rows, in any mode', () => {
    const rows = [
      row(0, { status: 'not_sent' }),
      row(1, { status: 'not_sent', resolution: 'unchecked', nameCheck: undefined }),
      row(2, { status: 'not_sent', resolution: 'mismatch', nameCheck: 'no_match', resolvedName: 'SOMEONE ELSE' }),
      row(3, { status: 'not_sent', resolution: 'mismatch', nameCheck: 'close_match', resolvedName: 'PAYEE 3' }),
      // Left out or in error: not sent, so not asked about.
      row(4, { status: 'not_sent', resolution: 'unchecked', excluded: true, excludedWhy: 'by_hand' }),
      row(5, {
        status: 'not_sent',
        resolution: 'unchecked',
        errors: [{ row: 7, column: 'amount', code: 'amount_invalid', message: 'x' }],
      }),
    ]
    const readiness = sendReadiness(rows)
    expect(readiness.rows).toBe(4)
    expect(readiness.unchecked).toEqual({ count: 1, sheetRows: [3] })
    expect(readiness.unacknowledged).toEqual({ count: 1, sheetRows: [4] })
    expect(readiness.refusal).toBe(
      "1 row's account name has not been checked (sheet row 3): check them before sending. " +
        "1 name does not match the bank's (sheet row 4): check them and acknowledge them, or exclude those rows, before sending.",
    )
    rows[1]!.resolution = 'matched'
    rows[2]!.acknowledged = { at: '2026-03-31T09:00:00Z', by: 'ada' }
    expect(sendReadiness(rows).refusal).toBeNull()
  })
})
