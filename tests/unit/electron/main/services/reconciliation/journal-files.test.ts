/**
 * Journal entries as each accounting package imports them, read back with the desk's strict CSV
 * reader: the documented columns in order, each package's date and amount forms, every entry
 * balanced, and the totals equal to what was paid and charged (decision 118).
 */
import { describe, expect, it } from 'vitest'
import {
  DEFAULT_ACCOUNTS,
  entryTotals,
  imbalanceOf,
  journalEntryOf,
} from '../../../../../../shared/reconciliation/journal-entries'
import type { PaidPayout } from '../../../../../../shared/reconciliation/journal-entries'
import { toMinorUnits, formatMinorUnits } from '../../../../../../shared/money'
import { parseCsv } from '../../../../../../electron/main/services/export/csv'
import {
  JOURNAL_COLUMNS,
  JOURNAL_FORMATS,
  XERO_MAX_LINES,
  journalFiles,
} from '../../../../../../electron/main/services/reconciliation/journal-files'

const paid = (n: number, extra: Partial<PaidPayout> = {}): PaidPayout => ({
  reference: `PAY-${String(n).padStart(4, '0')}`,
  date: '2026-10-0' + ((n % 9) + 1),
  currency: 'NGN',
  amount: `${1000 + n}.${String(n % 100).padStart(2, '0')}`,
  fee: n % 4 === 0 ? '0.00' : '26.88',
  feeBorneBy: n % 3 === 0 ? 'payee' : 'business',
  payee: n === 7 ? '=HYPERLINK("http://x")' : `Payee, ${n}`,
  runId: n % 2 ? 'BR00aa' : undefined,
  ...extra,
})

const payouts = [...Array.from({ length: 120 }, (_, i) => paid(i + 1)), paid(500, { currency: 'KES', amount: '99.99' })]
const entries = payouts.map((p) => journalEntryOf(p, DEFAULT_ACCOUNTS))

/** Debits and credits of a file's rows, per entry key, in minor units. */
function balances(
  rows: string[][],
  key: (row: string[]) => string,
  debit: (row: string[]) => bigint,
  credit: (row: string[]) => bigint,
) {
  const sums = new Map<string, bigint>()
  for (const row of rows) sums.set(key(row), (sums.get(key(row)) ?? 0n) + debit(row) - credit(row))
  return sums
}
const minor = (text: string) => (text === '' ? 0n : toMinorUnits(text))

describe('journal entries for the books', () => {
  it('one balanced entry per paid payout: the payee account against clearing, and the fee the business bore against bank charges', () => {
    const entry = journalEntryOf(paid(1), DEFAULT_ACCOUNTS)
    expect(entry.lines.map((l) => [l.account.name, l.debit, l.credit])).toEqual([
      ['Payouts', '1001.01', '0.00'],
      ['Payments Clearing', '0.00', '1001.01'],
      ['Bank Fees', '26.88', '0.00'],
      ['Payments Clearing', '0.00', '26.88'],
    ])
    expect(entry.narration).toBe('Payout PAY-0001 to Payee, 1 run BR00aa')
    // A fee the payee bore is not the business's cost.
    expect(journalEntryOf(paid(3), DEFAULT_ACCOUNTS).lines).toHaveLength(2)
    for (const e of entries) expect(imbalanceOf(e)).toBe(0n)
    expect(() => journalEntryOf(paid(2, { amount: '0.00' }), DEFAULT_ACCOUNTS)).toThrow(/above zero/)
  })

  it('each format is written to its documented columns, in order, with its own dates and amounts; every entry balances; the totals are what was paid', () => {
    const expected = entryTotals(entries)
    const paidNgn = payouts.filter((p) => p.currency === 'NGN').reduce((sum, p) => sum + toMinorUnits(p.amount), 0n)
    const feesNgn = payouts
      .filter((p) => p.currency === 'NGN' && p.feeBorneBy === 'business')
      .reduce((sum, p) => sum + toMinorUnits(p.fee ?? '0'), 0n)
    expect(expected.find((t) => t.currency === 'NGN')).toMatchObject({
      payouts: formatMinorUnits(paidNgn),
      fees: formatMinorUnits(feesNgn),
      entries: 120,
    })

    for (const format of JOURNAL_FORMATS) {
      const files = journalFiles(format, entries)
      const debitTotal = new Map<string, bigint>()
      for (const file of files) {
        // No byte-order mark: importers match the first header by its text.
        expect(file.text.charCodeAt(0)).not.toBe(0xfeff)
        const [header, ...rows] = parseCsv(file.text, 10_000)
        expect(header, `${format} header`).toEqual([...JOURNAL_COLUMNS[format]])
        const col = (name: string) => JOURNAL_COLUMNS[format].indexOf(name)
        let sums: Map<string, bigint>
        let debits = 0n
        switch (format) {
          case 'xero': {
            expect(rows.length).toBeLessThanOrEqual(XERO_MAX_LINES)
            for (const row of rows) expect(row[col('Date')]).toMatch(/^\d{2}\/\d{2}\/2026$/)
            for (const row of rows) expect(row[col('Amount')]).toMatch(/^-?\d+\.\d{2}$/)
            // One journal is the lines with one narration and date.
            sums = balances(
              rows,
              (r) => `${r[col('Narration')]}|${r[col('Date')]}`,
              (r) => minor(r[col('Amount')]!),
              () => 0n,
            )
            for (const row of rows) if (!row[col('Amount')]!.startsWith('-')) debits += minor(row[col('Amount')]!)
            break
          }
          case 'quickbooks':
            for (const row of rows) expect(row[col('Journal Date')]).toMatch(/^10\/0\d\/2026$/)
            sums = balances(
              rows,
              (r) => r[col('Journal No.')]!,
              (r) => minor(r[col('Debits')]!),
              (r) => minor(r[col('Credits')]!),
            )
            for (const row of rows) debits += minor(row[col('Debits')]!)
            break
          case 'sage':
            for (const row of rows) expect(row[col('Date')]).toMatch(/^0\d\/10\/2026$/)
            sums = balances(
              rows,
              (r) => r[col('Reference')]!,
              (r) => minor(r[col('Debit')]!),
              (r) => minor(r[col('Credit')]!),
            )
            for (const row of rows) debits += minor(row[col('Debit')]!)
            break
          case 'plain':
            for (const row of rows) expect(row[col('Date')]).toMatch(/^2026-10-0\d$/)
            sums = balances(
              rows,
              (r) => r[col('Entry')]!,
              (r) => minor(r[col('Debit')]!),
              (r) => minor(r[col('Credit')]!),
            )
            for (const row of rows) debits += minor(row[col('Debit')]!)
            break
        }
        expect(
          [...sums.values()].every((sum) => sum === 0n),
          `${format}: every entry balances`,
        ).toBe(true)
        expect(sums.size, `${format}: one journal per entry`).toBe(file.entries)
        debitTotal.set(file.currency, (debitTotal.get(file.currency) ?? 0n) + debits)
      }
      // Every debit is a payout or a fee the business bore: the totals of the entries, per currency.
      for (const total of expected)
        expect(debitTotal.get(total.currency), `${format} ${total.currency}`).toBe(
          toMinorUnits(total.payouts) + toMinorUnits(total.fees),
        )
    }
  })

  it('Xero: a long export is split into parts of at most 300 lines, never an entry across two; one file per currency', () => {
    const files = journalFiles('xero', entries)
    const ngn = files.filter((f) => f.currency === 'NGN')
    expect(ngn.length).toBeGreaterThan(1)
    expect(ngn.map((f) => f.name)).toEqual(ngn.map((_, i) => `journal-xero-NGN-part${i + 1}.csv`))
    expect(ngn.reduce((sum, f) => sum + f.entries, 0)).toBe(120)
    expect(files.filter((f) => f.currency === 'KES').map((f) => f.name)).toEqual(['journal-xero-KES.csv'])
  })

  it('text that a spreadsheet would run as a formula is written as text; commas and quotes survive the round trip', () => {
    const hostile = { ...DEFAULT_ACCOUNTS, payees: { code: '400', name: "=cmd|' /C calc'!A0" } }
    const [file] = journalFiles('quickbooks', [journalEntryOf(paid(8), hostile)])
    const [, first] = parseCsv(file!.text, 10)
    expect(first![JOURNAL_COLUMNS.quickbooks.indexOf('Account Name')]).toBe("'=cmd|' /C calc'!A0")
    expect(first![JOURNAL_COLUMNS.quickbooks.indexOf('Description')]).toBe(
      'Payout PAY-0008 to Payee, 8: Paid to Payee, 8',
    )
    // A Xero credit is a negative amount, never neutralised as if it were text.
    const [xero] = journalFiles('xero', [journalEntryOf(paid(8), DEFAULT_ACCOUNTS)])
    expect(parseCsv(xero!.text, 10)[2]![JOURNAL_COLUMNS.xero.indexOf('Amount')]).toBe('-1008.08')
  })
})
