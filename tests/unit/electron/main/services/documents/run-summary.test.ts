/**
 * The run summary: what it works out from a run (counts and exact totals by status, fees, rows not
 * sent by reason, the optional control total) and the PDF read back page by page, every figure
 * checked: the totals of page 1, each listed row, each page's total, the running totals carried
 * from page to page, and the page count.
 */
import { describe, expect, it } from 'vitest'
import type { RunRow } from '../../../../../../shared/domain/bulk-run'
import { formatMinorUnits, toMinorUnits } from '../../../../../../shared/money'
import { institutionDirectory } from '../../../../../../shared/words/institutions'
import {
  runSummaryInSlices,
  runSummaryOf,
  summaryExtrasOf,
} from '../../../../../../electron/main/services/documents/run-summary'
import type { RunSummaryInput } from '../../../../../../electron/main/services/documents/run-summary'
import { ROWS_PER_PAGE, runSummaryPdf } from '../../../../../../electron/main/services/documents/run-summary-pdf'
import { groupedAmount } from '../../../../../../electron/main/services/documents/document-words'
import { pdfPages, renderPages } from '../../../../../support/pdf'

const DIRECTORY = institutionDirectory(
  [
    { code: '058', name: 'Guaranty Trust Bank', country: 'NG' },
    { code: '044', name: 'Access Bank', country: 'NG' },
  ],
  [],
)

function row(index: number, overrides: Partial<RunRow> = {}, item: Partial<RunRow['item']> = {}): RunRow {
  return {
    index,
    item: {
      row: index + 2,
      reference: `PAY-${String(index).padStart(5, '0')}`,
      amount: '100.00',
      bank_code: index % 2 === 0 ? '058' : '044',
      account_number: `01234${String(index).padStart(5, '0')}`,
      customer_name: `Chidínma Ọkọ́nkwọ́ ${index}`,
      customer_email: `p${index}@example.com`,
      narration: 'Salary',
      ...item,
    },
    excluded: false,
    errors: [],
    warnings: [],
    resolution: 'matched',
    status: 'success',
    ...overrides,
  }
}

/** Six rows: two paid (one with a fee), one failed, one processing, one excluded, one with an error. */
const ROWS: RunRow[] = [
  row(0, { fee: '10.75', batchReference: 'B1' }, { amount: '1500.50' }),
  row(1, { batchReference: 'B1' }, { amount: '0.10' }),
  // The service names a fee on a failed payout too: it was not charged, and is not counted.
  row(
    2,
    { status: 'failed', message: 'Invalid account number', batchReference: 'B1', fee: '0.50' },
    { amount: '0.20' },
  ),
  row(3, { status: 'processing', batchReference: 'B1' }, { amount: '99999999.99' }),
  row(4, { excluded: true, status: 'not_sent' }, { amount: '5.00' }),
  row(
    5,
    {
      status: 'not_sent',
      errors: [{ row: 7, column: 'bank_code', code: 'bank_code_unknown', message: 'Bank code "999" is not…' }],
    },
    { amount: '7.00', bank_code: '999' },
  ),
]

function input(overrides: Partial<RunSummaryInput> = {}): RunSummaryInput {
  return {
    runId: 'BR20261123T195012Zabc123def0',
    fileName: 'payroll-march.xlsx',
    fileSha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    sheet: 'Payroll',
    description: 'March payroll',
    createdAt: '2026-11-23T19:50:12.000Z',
    stage: 'monitoring',
    mode: 'live',
    currency: 'NGN',
    merchantBearsCost: true,
    profileName: 'Acme live',
    payer: 'Adúnní Stores Ltd',
    preparedBy: 'ada (profile “Acme live”)',
    rows: ROWS,
    directory: DIRECTORY,
    ...overrides,
  }
}

const ISSUED = { issuedAt: new Date('2026-11-24T08:00:00Z'), timeZone: 'UTC' }

describe('what a run summary works out', () => {
  it('counts and totals by status exactly, with fees, chargeable and the rows not sent by reason', () => {
    const summary = runSummaryOf(input())
    expect(summary.statuses).toEqual([
      { outcome: 'paid', count: 2, total: '1500.60' },
      { outcome: 'failed', count: 1, total: '0.20' },
      { outcome: 'processing', count: 1, total: '99999999.99' },
      { outcome: 'error', count: 1, total: '7.00' },
      { outcome: 'excluded', count: 1, total: '5.00' },
    ])
    expect(summary.listedTotal).toBe('100001512.79')
    expect(summary.paidTotal).toBe('1500.60')
    // Fees and charges of the paid rows only: 1,500.60 and the one fee read (we pay the fees).
    expect(summary.fees).toEqual({ total: '10.75', rows: 1, unread: 1, paidRows: 2, charged: '1511.35' })
    expect(summary.notSent).toEqual([
      { reason: 'Bank not known to the service', rows: 1, total: '7.00' },
      { reason: 'Excluded on review', rows: 1, total: '5.00' },
    ])
    expect(summary.lines[0]).toEqual({
      row: 2,
      reference: 'PAY-00000',
      beneficiary: 'Chidínma Ọkọ́nkwọ́ 0',
      bank: 'Guaranty Trust Bank',
      account: '••••••0000',
      amount: '1500.50',
      amountAsRead: '1500.50',
      outcome: 'paid',
      reason: '',
    })
    expect(summary.lines[2]?.reason).toBe('Invalid account number')
    expect(summary.lines[5]).toMatchObject({ bank: 'Bank 999', outcome: 'error' })
    expect(summary.controlTotal).toBeNull()
  })

  it('keeps a row whose amount is not a number out of the totals and says what was read', () => {
    const rows = [
      ...ROWS,
      row(
        6,
        { status: 'not_sent', errors: [{ row: 8, column: 'amount', code: 'amount_invalid', message: 'x' }] },
        { amount: 'ten' },
      ),
    ]
    const summary = runSummaryOf(input({ rows }))
    expect(summary.lines[6]).toMatchObject({ amount: null, amountAsRead: 'ten', reason: 'Amount is not a number' })
    expect(summary.listedTotal).toBe('100001512.79')
    expect(summary.statuses.find((s) => s.outcome === 'error')).toEqual({ outcome: 'error', count: 2, total: '7.00' })
  })

  it('checks the control total when the sheet had one', () => {
    expect(
      runSummaryOf(input({ extras: { controlTotal: { sheetTotal: '100001512.79', sheetRow: 9 } } })).controlTotal,
    ).toEqual({
      sheetTotal: '100001512.79',
      sheetRow: 9,
      rowsTotal: '100001512.79',
      difference: '0.00',
    })
    expect(
      runSummaryOf(input({ extras: { controlTotal: { sheetTotal: '100001500' } } })).controlTotal?.difference,
    ).toBe('-12.79')
  })
})

describe('a large run summary worked out in slices', () => {
  it('gives the same summary as worked out at once, and main turns between slices of rows', async () => {
    // 12,003 rows: every outcome of ROWS, over more than two slices of 5,000.
    const rows = Array.from({ length: 12_003 }, (_, i) => {
      const model = ROWS[i % ROWS.length] as RunRow
      return { ...model, index: i, item: { ...model.item, row: i + 2, reference: `PAY-${i}` } }
    })
    const whole = input({ rows, extras: { controlTotal: { sheetTotal: '1.00', sheetRow: 12_005 } } })
    let turns = 0
    let counting = true
    const count = (): void => {
      if (!counting) return
      turns += 1
      setImmediate(count)
    }
    setImmediate(count)
    const sliced = await runSummaryInSlices(whole)
    counting = false
    expect(sliced).toEqual(runSummaryOf(whole))
    expect(sliced.lines).toHaveLength(12_003)
    // Worked out at once, main would not turn at all before the summary is there.
    expect(turns).toBeGreaterThanOrEqual(2)
  })
})

describe('the run summary PDF', () => {
  it('says on page 1 what the run was, who prepared it and when, and every total', async () => {
    const bytes = await runSummaryPdf(runSummaryOf(input()), ISSUED)
    const pages = pdfPages(bytes)
    expect(pages).toHaveLength(2)
    const first = (pages[0] ?? '').split('\n')
    expect(first).toEqual(
      expect.arrayContaining([
        'Bulk run summary',
        'March payroll · paid by Adúnní Stores Ltd',
        'Source file payroll-march.xlsx (sheet Payroll)',
        'SHA-256 of the file e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
        'Run ID BR20261123T195012Zabc123def0',
        'Run started 23 November 2026, 19:50:12 (UTC)',
        'Stage Sent: waiting for outcomes',
        'Profile Acme live (Live)',
        'Prepared by ada (profile “Acme live”)',
        'Prepared on 24 November 2026, 08:00:00 (UTC)',
        'Who pays the fees We do (merchant bears the cost)',
        'Status Rows Amount',
        'Paid 2 1,500.60 NGN',
        'Failed 1 0.20 NGN',
        'Processing 1 99,999,999.99 NGN',
        'Not sent: error 1 7.00 NGN',
        'Excluded 1 5.00 NGN',
        'All rows 6 100,001,512.79 NGN',
        'Fees charged 10.75 NGN on 1 paid row',
        'Fees not read yet 1 paid row',
        'Charged to the balance 1,511.35 NGN for 2 paid rows',
        'What was charged Amounts and fees',
        'Not charged Failed rows and rows not sent',
        'Reason Rows Amount',
        'Bank not known to the service 1 7.00 NGN',
        'Excluded on review 1 5.00 NGN',
      ]),
    )
    // Sections for data the run does not hold are left out, not shown empty.
    expect(pages[0]).not.toMatch(/Control total|Fees estimated|Left out at import|NOT A REAL PAYMENT/)
    expect(pages[0]).toContain('Page 1 of 2')
  })

  it('lists every row with bank by name, masked account, amount, status and reason, and the totals at the foot', async () => {
    const text = pdfPages(await runSummaryPdf(runSummaryOf(input()), ISSUED))[1] ?? ''
    const lines = text.split('\n')
    expect(lines).toEqual(
      expect.arrayContaining([
        'Row Reference Beneficiary Bank Account Amount Status Reason',
        '2 PAY-00000 Chidínma Ọkọ́nkwọ́ 0 Guaranty Trust Bank ••••••0000 1,500.50 NGN Paid',
        '3 PAY-00001 Chidínma Ọkọ́nkwọ́ 1 Access Bank ••••••0001 0.10 NGN Paid',
        '4 PAY-00002 Chidínma Ọkọ́nkwọ́ 2 Guaranty Trust Bank ••••••0002 0.20 NGN Failed Invalid account number',
        '5 PAY-00003 Chidínma Ọkọ́nkwọ́ 3 Access Bank ••••••0003 99,999,999.99 NGN Processing',
        '6 PAY-00004 Chidínma Ọkọ́nkwọ́ 4 Guaranty Trust Bank ••••••0004 5.00 NGN Excluded Excluded on review',
        '7 PAY-00005 Chidínma Ọkọ́nkwọ́ 5 Bank 999 ••••••0005 7.00 NGN Not sent: error Bank not known to the service',
        'Page total: 100,001,512.79 NGN (6 rows) Running total: 100,001,512.79 NGN Paid so far: 1,500.60 NGN',
      ]),
    )
    // No full account number ever: the masked last four only.
    for (const r of ROWS) expect(text).not.toContain(r.item.account_number)
  })

  it('lists references of up to 50 characters (the spec’s longest) whole, each on its row', async () => {
    const references = [
      'PAY-2026-MARCH-SALARY-ADUNNI-STORES-0000000000001X',
      'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-MMMMMMMMMMMMM',
      'short-1',
    ]
    const rows = references.map((reference, index) => row(index, {}, { reference }))
    const bytes = await runSummaryPdf(runSummaryOf(input({ rows })), ISSUED)
    const list = pdfPages(bytes)[1] ?? ''
    const lines = list.split('\n')
    references.forEach((reference, index) =>
      expect(lines.find((line) => line.startsWith(`${index + 2} `))).toContain(` ${reference} `),
    )
    expect(list).not.toContain('…')
  })

  it('paginates a long run with the running totals carried from page to page', async () => {
    const count = ROWS_PER_PAGE * 2 + 7
    const rows = Array.from({ length: count }, (_, i) =>
      row(i, i % 3 === 0 ? { status: 'failed', message: 'Declined' } : {}, {
        amount: `${i + 1}.${String(i % 100).padStart(2, '0')}`,
      }),
    )
    const pages = pdfPages(await runSummaryPdf(runSummaryOf(input({ rows })), ISSUED))
    expect(pages).toHaveLength(4)
    pages.forEach((page, i) => expect(page).toContain(`Page ${i + 1} of 4`))
    let running = 0n
    let paid = 0n
    for (let page = 0; page < 3; page++) {
      const text = pages[page + 1] ?? ''
      const onPage = rows.slice(page * ROWS_PER_PAGE, (page + 1) * ROWS_PER_PAGE)
      if (page > 0) {
        expect(text).toContain(`Carried forward: ${groupedAmount(running)} NGN · paid ${groupedAmount(paid)} NGN`)
      }
      const pageTotal = onPage.reduce((sum, r) => sum + toMinorUnits(r.item.amount), 0n)
      running += pageTotal
      paid += onPage.filter((r) => r.status === 'success').reduce((sum, r) => sum + toMinorUnits(r.item.amount), 0n)
      for (const r of onPage) expect(text).toContain(`${r.item.row} ${r.item.reference} `)
      expect(text).toContain(
        `Page total: ${groupedAmount(pageTotal)} NGN (${onPage.length} rows) Running total: ${groupedAmount(running)} NGN Paid so far: ${groupedAmount(paid)} NGN`,
      )
    }
    expect(formatMinorUnits(running)).toBe(runSummaryOf(input({ rows })).listedTotal)
  })

  it('shows the control total, a fee estimate and rows left out at import when the run has them', async () => {
    const summary = runSummaryOf(
      input({
        extras: {
          controlTotal: { sheetTotal: '100001500.00', sheetRow: 9 },
          feesEstimate: { total: '64.50', payouts: 6, low: '60.00', high: '70.25' },
          droppedAtImport: [{ reason: 'TOTAL row', rows: 1 }],
        },
      }),
    )
    const text = pdfPages(await runSummaryPdf(summary, ISSUED))[0] ?? ''
    expect(text).toContain("Sheet's TOTAL (row 9) 100,001,500.00 NGN")
    expect(text).toContain('Sum of the rows 100,001,512.79 NGN')
    expect(text).toContain('Check Rows exceed the TOTAL by 12.79 NGN')
    expect(text).toContain('Fees estimated about 64.50 NGN, from your last 6 payouts')
    expect(text).toContain('Estimate at least 60.00 NGN')
    expect(text).toContain('Estimate at most 70.25 NGN')
    expect(text).toContain('Left out at import: TOTAL row 1')
    const matching = runSummaryOf(input({ extras: { controlTotal: { sheetTotal: '100001512.79' } } }))
    expect(pdfPages(await runSummaryPdf(matching, ISSUED))[0]).toContain("Sheet's TOTAL 100,001,512.79 NGN")
    expect(pdfPages(await runSummaryPdf(matching, ISSUED))[0]).toContain('Check Matches')
  })

  it('watermarks every page of a Sandbox run and renders pages with content', async () => {
    const bytes = await runSummaryPdf(runSummaryOf(input({ mode: 'sandbox' })), ISSUED)
    for (const page of pdfPages(bytes)) expect(page.replace(/\s+/g, '')).toContain('SANDBOX·NOTAREALPAYMENT')
    const rendered = await renderPages(bytes)
    expect(rendered).toHaveLength(2)
    for (const page of rendered) {
      expect(page.width).toBeGreaterThan(page.height)
      expect(page.ink).toBeGreaterThan(0.01)
    }
  })

  it('refuses a card number typed into a row, naming the row', async () => {
    const rows = [...ROWS.slice(0, 2), row(9, {}, { customer_name: 'Card 4111 1111 1111 1111' })]
    await expect(runSummaryPdf(runSummaryOf(input({ rows })), ISSUED)).rejects.toThrow(
      'The run summary was not made: its beneficiary of row 11 looks like a key or a card number',
    )
  })

  it('names why each left-out row was left out, and carries the review’s fee estimate until the service has answered', () => {
    const rows = [
      row(0, { excluded: true, excludedWhy: 'duplicate_in_sheet', status: 'not_sent' }),
      row(1, { excluded: true, excludedWhy: 'already_paid', status: 'not_sent' }),
      row(2, { excluded: true, excludedWhy: 'by_hand', status: 'not_sent' }),
    ]
    expect(
      runSummaryOf({ ...input(), rows })
        .notSent.map((line) => line.reason)
        .sort(),
    ).toEqual([
      'Excluded on review',
      'Excluded: a repeat of an earlier row of the sheet',
      'Excluded: already paid in an earlier run or payout',
    ])
    const fees = {
      currency: 'NGN' as const,
      basis: 12,
      fees: { estimate: '30.00', low: '25.00', high: '40.00' },
      perPayout: { low: '10.00', high: '20.00' },
      debit: null,
      chargeable: null,
    }
    expect(summaryExtrasOf(undefined, fees)).toEqual({
      feesEstimate: { total: '30.00', payouts: 12, low: '25.00', high: '40.00' },
    })
    // Once the service has said what it charges, the summary gives that instead of the estimate.
    expect(summaryExtrasOf(undefined, { ...fees, chargeable: '1030.00' })).toBeUndefined()
    expect(summaryExtrasOf(undefined, { ...fees, fees: null, perPayout: null })).toBeUndefined()
  })
})

describe('the payee checks and confirmations in the run summary (decision 124)', () => {
  it('lists every kind of flag and each confirmation on pages of their own, and counts held rows as held, not sent', async () => {
    const confirmation = {
      id: 'c1',
      method: 'called_number_on_file' as const,
      note: 'Rang the number on file',
      by: 'ada',
      at: '2026-11-23T18:02:00.000Z',
      accountKey: 'bank:044:0123400001',
      account: '044 0123400001',
      payeeKey: 'id:e1',
      name: 'Chidínma Ọkọ́nkwọ́ 1',
      kinds: ['account_changed' as const],
    }
    const rows: RunRow[] = [
      row(0, {
        tripwires: [
          {
            kind: 'name_drift',
            account: '058 0123400000',
            resolvedNow: 'C OKONKWO',
            lastResolved: 'CHIDINMA OKONKWO',
            lastResolvedAt: '2026-10-01T00:00:00Z',
          },
          {
            kind: 'unusual_amount',
            basis: 'usual',
            amount: '1500.50',
            currency: 'NGN',
            median: '100.00',
            multiple: '3',
            payments: 4,
          },
        ],
      }),
      row(1, {
        tripwires: [
          {
            kind: 'account_changed',
            account: '044 0123400001',
            lastAccounts: ['044 0999999999'],
            lastPaidAt: '2026-10-31T10:00:00Z',
            identifiedBy: 'id',
          },
          { kind: 'new_account', account: '044 0123400001' },
        ],
        confirmation,
      }),
      row(2, {
        status: 'not_sent',
        tripwires: [
          { kind: 'shared_account', account: '058 0123400002', others: [{ name: 'Bola Ade', where: 'book' }] },
        ],
      }),
    ]
    const summary = runSummaryOf(input({ rows, stage: 'completed', mode: 'sandbox' }))
    expect(summary.statuses.find((status) => status.outcome === 'held')).toEqual({
      outcome: 'held',
      count: 1,
      total: '100.00',
    })
    expect(summary.notSent).toContainEqual({
      reason: 'Held: shared account, awaiting confirmation',
      rows: 1,
      total: '100.00',
    })
    expect(summary.payeeChecks.map((check) => [check.row, check.flags.length, check.held])).toEqual([
      [2, 2, false],
      [3, 2, false],
      [4, 1, true],
    ])

    const pages = pdfPages(await runSummaryPdf(summary, ISSUED))
    expect(pages).toHaveLength(3)
    const checks = (pages[2] ?? '').replace(/\s+/g, ' ')
    expect(checks).toContain('Payee checks and confirmations of run BR20261123T195012Zabc123def0')
    // Accounts masked as the summary lists them.
    expect(checks).toContain('Name drift: the bank now names 058 ••••••0000 "C OKONKWO"')
    expect(checks).toContain('Unusual amount: NGN 1500.50 is above 3 times the usual NGN 100.00')
    expect(checks).toContain('Account changed: last paid on 2026-10-31 to 044 ••••••9999, now 044 ••••••0001')
    expect(checks).toContain('New account: nothing was paid to 044 ••••••0001 before')
    expect(checks).toContain('Shared account: 058 ••••••0002 is also used by Bola Ade (paid before)')
    expect(checks).not.toContain('0123400001')
    expect(checks).toContain(
      'Confirmed 2026-11-23 18:02 UTC by ada: called the payee on a number already on file (Rang the number on file)',
    )
    expect(checks).toContain('Held, not sent: awaiting confirmation of the account')
    expect((pages[1] ?? '').replace(/\s+/g, ' ')).toContain('Held, not sent')
  })
})
