/**
 * The reconciliation report as a PDF (decision 141), drawn in the PDF worker like the run summary:
 * page 1 says what the period was (profile, mode, currency, days), who closed it and when, its
 * counts and exact totals per class and per currency, the fees the service charged and what the
 * books get (the journal-entry export's own totals, with the accounts); the pages after it list
 * every exception with its explanation, the note printed whole. A4 portrait; a block is never split
 * across two pages. Everything printed comes from the report's data (shared/reconciliation/
 * reconciliation-report.ts); nothing is counted here.
 */
import { setImmediate as nextTurn } from 'node:timers/promises'
import type { ReconciliationReport, ReportException } from '../../../../shared/reconciliation/reconciliation-report'
import {
  periodTotal,
  RECON_STATE_WORDS,
  REPORT_STATES,
  reportPeriodName,
} from '../../../../shared/reconciliation/reconciliation-report'
import { countOf } from '../../../../shared/words/counts'
import { assertPrintable } from './document-guard'
import { amountFigures, documentDateTime, MODE_WORDS, watermarkOf } from './document-words'
import { cell, COLORS, createPdf, rule } from './pdf-document'
import type { PdfWriter } from './pdf-document'

export interface ReconciliationReportOptions {
  issuedAt: Date
  timeZone?: string
}

export function reconciliationReportFileName(report: ReconciliationReport, extension: 'pdf' | 'xlsx'): string {
  return `Reconciliation ${reportPeriodName(report.period)}.${extension}`
}

const LINE = 13
/** Earlier closes and reopenings page 1 lists. */
const HISTORY_SHOWN = 8

/** Refuses a report holding a key or a card number (a note typed with one): nothing is drawn. */
export function assertReportPrintable(report: ReconciliationReport): void {
  assertPrintable('reconciliation report', { profile: report.profile.name, 'closed by': report.closedBy })
  for (const exception of report.exceptions)
    assertPrintable('reconciliation report', {
      [`reference ${exception.reference}`]: exception.reference,
      [`note of ${exception.reference}`]: exception.explanation?.note,
      [`explanation of ${exception.reference}`]: exception.explanation?.by,
    })
  for (const event of report.history)
    assertPrintable('reconciliation report', { 'reason for reopening': event.reason ?? '' })
}

export async function reconciliationReportPdf(
  report: ReconciliationReport,
  options: ReconciliationReportOptions,
): Promise<Buffer> {
  assertReportPrintable(report)
  const when = (iso: string) => documentDateTime(iso, options.timeZone)
  const name = reportPeriodName(report.period)
  const writer = createPdf({
    title: `Reconciliation report ${name}`,
    subject: `Reconciliation of ${report.profile.name}, ${name}`,
    author: report.closedBy,
    watermark: watermarkOf(report.mode),
    footer: `Reconciliation ${name} · ${report.profile.name} · closed ${when(report.closedAt)} by ${report.closedBy}`,
  })
  await exceptionPages(writer, report, when, firstPage(writer, report, when))
  return writer.finish()
}

function facts(writer: PdfWriter, y: number, rows: Array<[string, string]>): number {
  const { doc } = writer
  for (const [label, value] of rows) {
    doc.font('regular').fontSize(8.5).fillColor(COLORS.muted)
    cell(doc, label, writer.left, y, 150)
    doc.font('regular').fontSize(9).fillColor(COLORS.text)
    cell(doc, value, writer.left + 154, y, writer.width - 154)
    y += 14
  }
  return y
}

function heading(writer: PdfWriter, text: string, y: number): number {
  writer.doc.font('bold').fontSize(11).fillColor(COLORS.text)
  cell(writer.doc, text, writer.left, y, writer.width)
  return y + 18
}

/** A table of a few columns, the first left-aligned, the rest right; the last row may be a bold total. */
function table(
  writer: PdfWriter,
  y: number,
  widths: readonly number[],
  headers: readonly string[],
  rows: ReadonlyArray<readonly string[]>,
  total: readonly string[] | null,
): number {
  const { doc } = writer
  const xs: number[] = []
  widths.reduce((x, width) => (xs.push(x), x + width), writer.left)
  const row = (values: readonly string[], font: 'regular' | 'bold', color: string) => {
    doc.font(font).fontSize(9).fillColor(color)
    values.forEach((value, i) => cell(doc, value, xs[i]!, y, widths[i]! - 8, i === 0 ? 'left' : 'right'))
    y += 14
  }
  row(headers, 'bold', COLORS.muted)
  for (const values of rows) row(values, 'regular', COLORS.text)
  if (total) {
    rule(writer, y - 2)
    y += 2
    row(total, 'bold', COLORS.text)
  }
  return y
}

function firstPage(writer: PdfWriter, report: ReconciliationReport, when: (iso: string) => string): number {
  const { doc } = writer
  let y = writer.top
  doc.font('bold').fontSize(18).fillColor(COLORS.text)
  cell(doc, 'Reconciliation report', writer.left, y, writer.width)
  y += 26
  doc.font('regular').fontSize(10).fillColor(COLORS.muted)
  cell(doc, `${reportPeriodName(report.period)} · ${report.profile.name}`, writer.left, y, writer.width)
  y += 16
  if (report.mode !== 'live') {
    doc.font('bold').fontSize(9).fillColor(COLORS.warning)
    cell(doc, `${MODE_WORDS[report.mode]}. Nothing in this report is real money.`, writer.left, y, writer.width)
    y += 16
  }
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10)
  const explained = report.exceptions.filter((exception) => exception.explanation).length
  y = facts(writer, y + 4, [
    ['Profile', report.profile.name],
    ['Mode', MODE_WORDS[report.mode]],
    ['Currency', report.period.currency],
    ['Period', `${day(report.period.from)} to ${day(report.period.to)} (UTC days, both included)`],
    ["Service's history read", when(report.readAt)],
    ['Closed by', report.closedBy],
    ['Closed on', when(report.closedAt)],
    ['Payouts in the period', String(report.lines)],
    ['Exceptions', `${report.exceptions.length}, ${explained} explained`],
  ])
  for (const totals of report.totals) {
    y = heading(writer, `By class, ${totals.currency}`, y + 10)
    const all = periodTotal(totals)
    y = table(
      writer,
      y,
      [220, 80, 160],
      ['Class', 'Payouts', 'Amount'],
      REPORT_STATES.map((state) => [
        RECON_STATE_WORDS[state],
        String(totals.states[state].count),
        amountFigures(totals.states[state].amount, totals.currency),
      ]),
      ['All payouts', String(all.count), amountFigures(all.amount, totals.currency)],
    )
    y = facts(writer, y + 4, [['Fees the service charged', amountFigures(totals.fees, totals.currency)]])
  }
  y = heading(writer, 'For the books: journal entries of the period', y + 10)
  y = table(
    writer,
    y,
    [110, 70, 140, 140],
    ['Currency', 'Entries', 'Paid to payees', 'Fees to bank charges'],
    report.books.map((books) => [
      books.currency,
      String(books.entries),
      amountFigures(books.payouts, books.currency),
      amountFigures(books.fees, books.currency),
    ]),
    null,
  )
  if (report.books.length === 0) {
    doc.font('regular').fontSize(9).fillColor(COLORS.muted)
    cell(doc, 'The period has no paid payouts: nothing is booked.', writer.left, y, writer.width)
    y += 14
  }
  const account = (key: keyof ReconciliationReport['accounts']) =>
    `${report.accounts[key].code} ${report.accounts[key].name}`
  y = facts(writer, y + 4, [
    ['Payouts booked to', account('payees')],
    ['Against clearing', account('clearing')],
    ['Fees booked to', account('bankCharges')],
  ])
  if (report.history.length > 0) {
    // Page 1 holds the last few; the workbook lists every one.
    const shown = report.history.slice(-HISTORY_SHOWN)
    y = heading(
      writer,
      report.history.length > shown.length
        ? `Earlier closes and reopenings (the last ${shown.length} of ${report.history.length})`
        : 'Earlier closes and reopenings',
      y + 10,
    )
    y = facts(
      writer,
      y,
      shown.map((event) => [
        event.type === 'closed' ? 'Closed' : 'Reopened',
        `${when(event.at)} by ${event.by}${event.reason ? `: ${event.reason}` : ''}`,
      ]),
    )
  }
  return y
}

/** The lines of one exception's block, each with its tone. */
function blockLines(
  exception: ReportException,
  when: (iso: string) => string,
): Array<[string, 'head' | 'text' | 'note']> {
  const lines: Array<[string, 'head' | 'text' | 'note']> = [
    [
      `${exception.reference} · ${RECON_STATE_WORDS[exception.state]} · ${amountFigures(exception.amount, exception.currency)}${exception.fee === null ? '' : ` · fee ${amountFigures(exception.fee, exception.currency)}`}`,
      'head',
    ],
    [
      `Service: ${exception.serviceStatus ?? 'no payout'} · Ours: ${exception.ourStatus ?? 'no record'}${exception.source ? ` · ${exception.source}` : ''}`,
      'text',
    ],
  ]
  if (exception.differs) lines.push([`What differs: ${exception.differs}`, 'text'])
  if (exception.verify) lines.push([`Verify by reference: ${exception.verify}`, 'text'])
  const explanation = exception.explanation
  if (explanation) {
    lines.push([`Explained by ${explanation.by} on ${when(explanation.at)}: ${explanation.reason}`, 'text'])
    lines.push([`Note: ${explanation.note}`, 'note'])
  } else lines.push(['Not explained', 'text'])
  return lines
}

async function exceptionPages(
  writer: PdfWriter,
  report: ReconciliationReport,
  when: (iso: string) => string,
  firstY: number,
): Promise<void> {
  const { doc } = writer
  let y = firstY + 10
  const start = (continued: boolean) => {
    doc.addPage()
    y = writer.top
    y = heading(writer, continued ? 'Exceptions (continued)' : 'Exceptions and their explanations', y)
    rule(writer, y - 4)
  }
  if (report.exceptions.length === 0) {
    y = heading(writer, 'Exceptions', y)
    doc.font('regular').fontSize(9).fillColor(COLORS.muted)
    cell(doc, 'None: every payout of the period matched.', writer.left, y, writer.width)
    return
  }
  start(false)
  doc.font('regular').fontSize(8.5).fillColor(COLORS.muted)
  cell(
    doc,
    `${countOf(report.exceptions.length, 'exception')}, each explained before the close`,
    writer.left,
    y,
    writer.width,
  )
  y += 16
  for (const [index, exception] of report.exceptions.entries()) {
    if (index > 0 && index % 20 === 0) await nextTurn()
    const lines = blockLines(exception, when)
    doc.font('regular').fontSize(8.5)
    const noteHeight = (text: string) => doc.heightOfString(text, { width: writer.width - 12 })
    const height = lines.reduce((sum, [text, tone]) => sum + (tone === 'note' ? noteHeight(text) + 2 : LINE), 0) + 8
    if (y + height > writer.bottom) start(true)
    for (const [text, tone] of lines) {
      if (tone === 'note') {
        doc.font('regular').fontSize(8.5).fillColor(COLORS.text)
        doc.text(text, writer.left + 12, y, { width: writer.width - 12 })
        y += noteHeight(text) + 2
        continue
      }
      doc
        .font(tone === 'head' ? 'bold' : 'regular')
        .fontSize(tone === 'head' ? 9 : 8.5)
        .fillColor(tone === 'head' && exception.state === 'service_only' ? COLORS.warning : COLORS.text)
      cell(doc, text, writer.left + (tone === 'head' ? 0 : 12), y, writer.width - 12)
      y += LINE
    }
    y += 8
  }
}
