/**
 * The reconciliation report as an XLSX workbook (decision 141), written with SheetJS in the PDF
 * worker (off main's thread, SheetJS loaded on first use): "Report" (what the period was, who
 * closed it and when, every earlier close and reopening), "Totals" (count and amount per class and
 * currency, the fees the service charged), "Books" (the journal-entry export's totals and accounts)
 * and "Exceptions" (one row each, with its explanation). The same data the PDF prints. Text is
 * neutralised against formula injection like every sheet the desk writes; amounts are numbers
 * with two decimals, from their exact decimal text (a two-decimal amount below 2^53 / 100 reads
 * back as written); dates are ISO 8601 text, told in UTC.
 */
import type * as SheetJs from 'xlsx'
import type { ReconciliationReport } from '../../../../shared/reconciliation/reconciliation-report'
import {
  periodTotal,
  RECON_STATE_WORDS,
  REPORT_STATES,
  reportPeriodName,
} from '../../../../shared/reconciliation/reconciliation-report'
import { neutraliseText } from '../export'
import { assertReportPrintable } from './reconciliation-report-pdf'
import { MODE_WORDS } from './document-words'

export const REPORT_SHEETS = ['Report', 'Totals', 'Books', 'Exceptions'] as const

export const EXCEPTION_COLUMNS = [
  'Reference',
  'Class',
  'Currency',
  'Amount',
  'Fee',
  'Service status',
  'Our status',
  'Our record',
  'What differs',
  'Verify by reference',
  'Explanation',
  'Note',
  'Explained by',
  'Explained at',
] as const

let XLSX: typeof SheetJs | null = null

type Cell = string | number | { amount: string } | null

function sheetOf(xlsx: typeof SheetJs, rows: ReadonlyArray<readonly Cell[]>, widths: readonly number[]) {
  const sheet: SheetJs.WorkSheet = {}
  let lastColumn = 0
  rows.forEach((row, r) => {
    row.forEach((value, c) => {
      if (value === null) return
      lastColumn = Math.max(lastColumn, c)
      const address = xlsx.utils.encode_cell({ r, c })
      if (typeof value === 'string') sheet[address] = { t: 's', v: neutraliseText(value) }
      else if (typeof value === 'number') sheet[address] = { t: 'n', v: value, z: '0' }
      else sheet[address] = { t: 'n', v: Number(value.amount), z: '#,##0.00' }
    })
  })
  sheet['!ref'] = xlsx.utils.encode_range({ s: { r: 0, c: 0 }, e: { r: Math.max(rows.length - 1, 0), c: lastColumn } })
  sheet['!cols'] = widths.map((wch) => ({ wch }))
  return sheet
}

export async function reconciliationReportXlsx(report: ReconciliationReport): Promise<Buffer> {
  assertReportPrintable(report)
  XLSX ??= await import('xlsx')
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10)
  const explained = report.exceptions.filter((exception) => exception.explanation).length
  const reportRows: Cell[][] = [
    ['Reconciliation report', reportPeriodName(report.period)],
    ['Profile', report.profile.name],
    ['Mode', MODE_WORDS[report.mode]],
    ['Currency', report.period.currency],
    ['From (UTC day)', day(report.period.from)],
    ['To (UTC day, included)', day(report.period.to)],
    ["Service's history read at", report.readAt],
    ['Closed by', report.closedBy],
    ['Closed at', report.closedAt],
    ['Payouts in the period', report.lines],
    ['Exceptions', report.exceptions.length],
    ['Explained', explained],
    [],
    ['Earlier closes and reopenings', 'By', 'At', 'Reason'],
    ...report.history.map((event) => [
      event.type === 'closed' ? 'Closed' : 'Reopened',
      event.by,
      event.at,
      event.reason ?? null,
    ]),
  ]
  const totalsRows: Cell[][] = [['Currency', 'Class', 'Payouts', 'Amount']]
  for (const totals of report.totals) {
    for (const state of REPORT_STATES)
      totalsRows.push([
        totals.currency,
        RECON_STATE_WORDS[state],
        totals.states[state].count,
        { amount: totals.states[state].amount },
      ])
    const all = periodTotal(totals)
    totalsRows.push([totals.currency, 'All payouts', all.count, { amount: all.amount }])
    totalsRows.push([totals.currency, 'Fees the service charged', null, { amount: totals.fees }])
  }
  const booksRows: Cell[][] = [
    ['Currency', 'Journal entries', 'Paid to payees', 'Fees to bank charges'],
    ...report.books.map((books) => [books.currency, books.entries, { amount: books.payouts }, { amount: books.fees }]),
    [],
    ['Account', 'Code', 'Name'],
    ['Payouts', report.accounts.payees.code, report.accounts.payees.name],
    ['Clearing', report.accounts.clearing.code, report.accounts.clearing.name],
    ['Bank charges', report.accounts.bankCharges.code, report.accounts.bankCharges.name],
  ]
  const exceptionRows: Cell[][] = [
    [...EXCEPTION_COLUMNS],
    ...report.exceptions.map((exception) => [
      exception.reference,
      RECON_STATE_WORDS[exception.state],
      exception.currency,
      { amount: exception.amount },
      exception.fee === null ? null : { amount: exception.fee },
      exception.serviceStatus,
      exception.ourStatus,
      exception.source || null,
      exception.differs || null,
      exception.verify || null,
      exception.explanation?.reason ?? 'Not explained',
      exception.explanation?.note ?? null,
      exception.explanation?.by ?? null,
      exception.explanation?.at ?? null,
    ]),
  ]
  const book = XLSX.utils.book_new()
  XLSX.utils.book_append_sheet(book, sheetOf(XLSX, reportRows, [30, 36, 26, 40]), 'Report')
  XLSX.utils.book_append_sheet(book, sheetOf(XLSX, totalsRows, [10, 28, 10, 18]), 'Totals')
  XLSX.utils.book_append_sheet(book, sheetOf(XLSX, booksRows, [14, 16, 18, 20]), 'Books')
  XLSX.utils.book_append_sheet(
    book,
    sheetOf(XLSX, exceptionRows, [24, 22, 9, 14, 10, 14, 10, 28, 36, 36, 34, 50, 14, 24]),
    'Exceptions',
  )
  book.Props = { Title: `Reconciliation report ${reportPeriodName(report.period)}`, Author: report.closedBy }
  return XLSX.write(book, { type: 'buffer', bookType: 'xlsx', compression: true }) as Buffer
}
