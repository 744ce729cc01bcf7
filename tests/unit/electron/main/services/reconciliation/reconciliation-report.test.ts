/**
 * The report a close writes (decision 141), as an accountant reads it: the PDF through pdftotext
 * and the XLSX through SheetJS, both drawn in the documents worker. Its counts and totals per class
 * come from the period's lines; what it says the books get equals what the journal-entry export
 * writes for the same lines (read back from the plain CSV); every exception is there with who
 * explained it, when, why and the note; a note holding a card number stops the report.
 */
import * as XLSX from 'xlsx'
import { describe, expect, it } from 'vitest'
import { renderPdf } from '../../../../../../electron/main/services/documents/pdf-renderer'
import { journalFiles } from '../../../../../../electron/main/services/reconciliation/journal-files'
import { readCsv } from '../../../../../../electron/main/services/files'
import { DEFAULT_ACCOUNTS, journalEntryOf } from '../../../../../../shared/reconciliation/journal-entries'
import type { OurPayout, ServicePayout } from '../../../../../../shared/reconciliation/period-match'
import { exceptionsOf, reconcilePeriod } from '../../../../../../shared/reconciliation/period-match'
import type { ReconExplanation } from '../../../../../../shared/reconciliation/period-close'
import { paidPayoutsOf, reconciliationReportOf } from '../../../../../../shared/reconciliation/reconciliation-report'
import { formatMinorUnits, toMinorUnits } from '../../../../../../shared/money'
import { pdfText } from '../../../../../support/pdf'

const at = '2026-10-14 10:00:00'
const service = (reference: string, amount: string, fee: string, status = 'success'): ServicePayout => ({
  reference,
  status,
  amount,
  fee,
  currency: 'NGN',
  createdAt: at,
  customerName: 'Someone Else',
})
const ours = (
  reference: string,
  amount: string,
  fee: string | null,
  status: OurPayout['status'] = 'paid',
  source: OurPayout['source'] = { kind: 'payout' },
): OurPayout => ({
  reference,
  amount,
  currency: 'NGN',
  status,
  fee,
  sentAt: '2026-10-14T10:00:00.000Z',
  payee: `Payee ${reference}`,
  source,
})

const bulk = { kind: 'bulk_row', runId: 'BR-PAYEE-PAYS', batchReference: 'BATCH-1' } as const
const reconciliation = reconcilePeriod(
  [
    service('M-1', '1500.00', '20.00'),
    service('F-1', '80.00', '0.00', 'failed'),
    service('B-1', '400.00', '5.00'),
    service('D-1', '250.00', '99.00'),
    service('E-1', '700.00', '10.00'),
  ],
  [
    ours('M-1', '1500.00', '20.00'),
    ours('F-1', '80.00', null, 'failed'),
    ours('B-1', '400.00', '5.00', 'paid', bulk),
    ours('D-1', '250.00', '20.00'),
    ours('O-1', '300.00', null, 'unknown'),
  ],
  new Map([
    [
      'O-1',
      { found: 'absent', at: '2026-11-01T09:00:00.000Z', note: 'The service has no payout O-1 (asked by reference).' },
    ],
  ]),
)
const exceptions = exceptionsOf(reconciliation)
const explained = (reference: string, note: string, by = 'ada'): [string, ReconExplanation] => [
  reference,
  {
    reference,
    reason: reference === 'E-1' ? 'authorised_elsewhere' : 'other',
    note,
    by,
    at: '2026-11-01T10:00:00.000Z',
  },
]
const explanations = new Map([
  explained('D-1', 'Repriced by the provider in October'),
  explained('E-1', '=SUM(A1) payroll script, key rotated', 'efe'),
  explained('O-1', 'Sent again as O-2 in November'),
])
const feeBorneBy = (line: { ours?: OurPayout }) =>
  line.ours?.source.kind === 'bulk_row' && line.ours.source.runId === 'BR-PAYEE-PAYS' ? 'payee' : 'business'
const report = reconciliationReportOf({
  profile: { id: 'p1', name: 'Acme Trading (test)' },
  mode: 'test',
  period: { currency: 'NGN', from: Date.UTC(2026, 9, 1), to: Date.UTC(2026, 9, 31, 23, 59, 59, 999) },
  readAt: '2026-11-01T08:59:00.000Z',
  close: { by: 'ada', at: '2026-11-01T11:00:00.000Z' },
  lines: reconciliation.lines,
  exceptions,
  explanations,
  history: [{ type: 'reopened', by: 'efe', at: '2026-10-31T18:00:00.000Z', reason: 'A refund came late' }],
  accounts: DEFAULT_ACCOUNTS,
  feeBorneBy,
})
const options = { issuedAt: new Date('2026-11-01T11:00:01Z'), timeZone: 'UTC' }

describe('the reconciliation report', () => {
  it('counts every class and currency from the lines, and books exactly what the journal-entry export writes', () => {
    const ngn = report.totals[0]!
    expect(report.totals.map((totals) => totals.currency)).toEqual(['NGN'])
    expect(ngn.states.matched).toEqual({ count: 3, amount: '1980.00' })
    expect(ngn.states.differs).toEqual({ count: 1, amount: '250.00' })
    expect(ngn.states.service_only).toEqual({ count: 1, amount: '700.00' })
    expect(ngn.states.ours_only).toEqual({ count: 1, amount: '300.00' })
    // What the service charged on what it paid (the failed payout's is not a charge).
    expect(ngn.fees).toBe('134.00')
    // The books: the plain journal-entry file of the same lines, read back, debits per account.
    const entries = paidPayoutsOf(reconciliation.lines, feeBorneBy).map((p) => journalEntryOf(p, DEFAULT_ACCOUNTS))
    const [file] = journalFiles('plain', entries)
    const [header, ...rows] = readCsv(file!.text).records
    const column = (name: string) => header!.indexOf(name)
    const debited = (code: string) =>
      formatMinorUnits(
        rows
          .filter((row) => row[column('Account Code')] === code)
          .reduce((sum, row) => sum + toMinorUnits(row[column('Debit')]!), 0n),
      )
    const entryCount = new Set(rows.map((row) => row[column('Entry')])).size
    expect(report.books).toEqual([
      {
        currency: 'NGN',
        entries: entryCount,
        payouts: debited(DEFAULT_ACCOUNTS.payees.code),
        fees: debited(DEFAULT_ACCOUNTS.bankCharges.code),
      },
    ])
    // 1500 + 400 + 250 + 700 paid; fees 20 + 99 + 10 (the run whose payees bore the 5.00 books none).
    expect(report.books[0]).toEqual({ currency: 'NGN', entries: 4, payouts: '2850.00', fees: '129.00' })
  })

  it('the PDF, drawn in the worker, reads back with the period, mode, figures, every exception explained and who closed it', async () => {
    const text = pdfText(await renderPdf({ kind: 'reconciliation', input: report, options }))
    const flat = text.replace(/\s+/g, ' ')
    expect(flat).toContain('Reconciliation report')
    expect(flat).toContain('NGN 2026-10-01 to 2026-10-31 · Acme Trading (test)')
    expect(flat).toContain('Test mode: not real money. Nothing in this report is real money.')
    expect(flat).toContain('Closed by ada')
    expect(flat).toContain('Closed on 1 November 2026, 11:00:00 (UTC)')
    expect(flat).toContain('Payouts in the period 6')
    expect(flat).toContain('Exceptions 3, 3 explained')
    expect(flat).toContain('Matched 3 1,980.00 NGN')
    expect(flat).toContain('Differs 1 250.00 NGN')
    expect(flat).toContain('At the service only 1 700.00 NGN')
    expect(flat).toContain('Ours only: never arrived 1 300.00 NGN')
    expect(flat).toContain('All payouts 6 3,230.00 NGN')
    expect(flat).toContain('Fees the service charged 134.00 NGN')
    expect(flat).toContain('NGN 4 2,850.00 NGN 129.00 NGN')
    expect(flat).toContain('Reopened 31 October 2026, 18:00:00 (UTC) by efe: A refund came late')
    for (const [reference, explanation] of explanations) {
      expect(flat).toContain(reference)
      expect(flat).toContain(`Note: ${explanation.note}`)
    }
    expect(flat).toContain('D-1 · Differs · 250.00 NGN · fee 99.00 NGN')
    expect(flat).toContain('What differs: fee: service 99.00, ours 20.00')
    expect(flat).toContain('Verify by reference: absent: The service has no payout O-1 (asked by reference).')
    expect(flat).toContain(
      'Explained by efe on 1 November 2026, 10:00:00 (UTC): Made by a tool or person we authorised',
    )
  })

  it('the XLSX, written by SheetJS in the worker, holds the same figures, every exception with its explanation, text neutralised', async () => {
    const book = XLSX.read(await renderPdf({ kind: 'reconciliation-xlsx', input: report, options }), { type: 'buffer' })
    expect(book.SheetNames).toEqual(['Report', 'Totals', 'Books', 'Exceptions'])
    const rows = (name: string) => XLSX.utils.sheet_to_json<unknown[]>(book.Sheets[name]!, { header: 1, raw: true })
    const facts = Object.fromEntries(rows('Report').map((row) => [row[0], row[1]]))
    expect(facts).toMatchObject({
      Profile: 'Acme Trading (test)',
      Mode: 'Test mode: not real money',
      Currency: 'NGN',
      'From (UTC day)': '2026-10-01',
      'To (UTC day, included)': '2026-10-31',
      'Closed by': 'ada',
      'Closed at': '2026-11-01T11:00:00.000Z',
      'Payouts in the period': 6,
      Exceptions: 3,
      Explained: 3,
    })
    expect(rows('Totals')).toContainEqual(['NGN', 'Matched', 3, 1980])
    expect(rows('Totals')).toContainEqual(['NGN', 'All payouts', 6, 3230])
    expect(rows('Totals')).toContainEqual(['NGN', 'Fees the service charged', undefined, 134])
    expect(rows('Books')[1]).toEqual(['NGN', 4, 2850, 129])
    const [header, ...lines] = rows('Exceptions')
    expect(lines.map((line) => line[0])).toEqual(exceptions.map((line) => line.reference))
    const byReference = Object.fromEntries(
      lines.map((line) => [line[0], Object.fromEntries(header!.map((name, i) => [name, line[i]]))]),
    )
    expect(byReference['E-1']).toMatchObject({
      Class: 'At the service only',
      Amount: 700,
      Explanation: 'Made by a tool or person we authorised',
      // A note that starts like a formula stays text.
      Note: "'=SUM(A1) payroll script, key rotated",
      'Explained by': 'efe',
      'Explained at': '2026-11-01T10:00:00.000Z',
    })
    expect(byReference['O-1']).toMatchObject({ Class: 'Ours only: never arrived', 'Explained by': 'ada' })
  })

  it('a note holding a card number stops the report, naming the note; nothing is drawn', async () => {
    const leaky = {
      ...report,
      exceptions: report.exceptions.map((exception) =>
        exception.reference === 'D-1'
          ? { ...exception, explanation: { ...exception.explanation!, note: 'card 4111 1111 1111 1111' } }
          : exception,
      ),
    }
    for (const kind of ['reconciliation', 'reconciliation-xlsx'] as const)
      await expect(renderPdf({ kind, input: leaky, options })).rejects.toThrow(
        'The reconciliation report was not made: its note of D-1 looks like a key or a card number',
      )
  })
})
