/**
 * The run summary as a PDF an accountant files with the books: page 1 says what the run was (file
 * and its SHA-256, who prepared it and when, the mode), its counts and exact totals by status,
 * fees, the control total when the sheet had one, and the rows not sent by reason; the pages after
 * it list every row (reference, whole, beneficiary, bank, masked account, amount, status, reason), with
 * what is carried forward at the top of each page and the page and running totals at its foot;
 * then the payee checks' flags of each flagged row with its confirmation or hold (decision 124).
 *
 * A4 landscape, a fixed number of rows per page, so the page count is known before the first page
 * ("Page 3 of 40"). Drawn in the PDF worker (pdf-renderer.ts), off main; it yields between pages all the same.
 *
 * Size: one document's layout, page 1 and the row pages, drawn in order with shared measures
 * (columns, rows per page, carried totals).
 */
import { setImmediate as nextTurn } from 'node:timers/promises'
import { assertPrintable } from './document-guard'
import { amountFigures, documentDateTime, MODE_WORDS, watermarkOf } from './document-words'
import { cell, COLORS, createPdf, rule, wholeCell } from './pdf-document'
import type { PdfWriter } from './pdf-document'
import type { PayeeCheckLine, RunSummary, SummaryLine } from './run-summary'
import { OUTCOME_WORDS } from './run-summary'
import { toMinorUnits } from '../../../../shared/money'
import { countOf } from '../../../../shared/words/counts'
import { RUN_STAGE_DOCUMENT_WORDS } from '../../../../shared/words/run-stages'

export const ROWS_PER_PAGE = 30
/** Reasons listed on page 1; the rest are counted in one line. */
const MAX_REASONS = 10
const ROW_HEIGHT = 13

/** The list's type size, and the smallest a reference is set in to be listed whole. */
const LIST_SIZE = 7.5
const SMALLEST_REFERENCE_SIZE = 4.5
/** The widest the Reference column grows for a run's long references (decision 60). */
const REFERENCE_MAX_WIDTH = 210

const COLUMNS = [
  { header: 'Row', width: 34, align: 'right' },
  { header: 'Reference', width: 112, align: 'left' },
  { header: 'Beneficiary', width: 132, align: 'left' },
  { header: 'Bank', width: 118, align: 'left' },
  { header: 'Account', width: 74, align: 'left' },
  { header: 'Amount', width: 92, align: 'right' },
  { header: 'Status', width: 74, align: 'left' },
  { header: 'Reason', width: 0, align: 'left' },
] as const

export interface RunSummaryPdfOptions {
  issuedAt: Date
  timeZone?: string
}

export function runSummaryFileName(summary: RunSummary): string {
  return `Run summary ${summary.input.runId}.pdf`
}

export function runSummaryPageCount(summary: RunSummary): number {
  return 1 + Math.max(1, Math.ceil(summary.lines.length / ROWS_PER_PAGE)) + payeeCheckPages(summary).length
}

/** Lines of text on a page of payee checks. */
const CHECK_LINES_PER_PAGE = 34

/**
 * The payee checks' pages (decisions 108, 124): each flagged row takes a line for the row, one per
 * flag and one for its confirmation or hold, and is never split across two pages; known before the
 * first page is drawn, for "Page 3 of 40".
 */
export function payeeCheckPages(summary: RunSummary): PayeeCheckLine[][] {
  const pages: PayeeCheckLine[][] = []
  let page: PayeeCheckLine[] = []
  let used = 0
  for (const check of summary.payeeChecks) {
    const lines = checkLines(check).length
    if (used + lines > CHECK_LINES_PER_PAGE && page.length > 0) {
      pages.push(page)
      page = []
      used = 0
    }
    page.push(check)
    used += lines
  }
  if (page.length > 0) pages.push(page)
  return pages
}

/** What one flagged row says, a line each. */
function checkLines(check: PayeeCheckLine): Array<{ text: string; tone: 'row' | 'flag' | 'held' | 'confirmed' }> {
  return [
    { text: `Row ${check.row}: ${check.beneficiary}`, tone: 'row' },
    ...check.flags.map((flag) => ({ text: flag, tone: 'flag' as const })),
    ...(check.confirmation ? [{ text: check.confirmation, tone: 'confirmed' as const }] : []),
    ...(check.held ? [{ text: 'Held, not sent: awaiting confirmation of the account', tone: 'held' as const }] : []),
  ]
}

async function payeeChecksPages(writer: PdfWriter, summary: RunSummary): Promise<void> {
  const { doc } = writer
  const pages = payeeCheckPages(summary)
  for (const [index, checks] of pages.entries()) {
    await nextTurn()
    doc.addPage()
    let y = writer.top
    doc.font('bold').fontSize(11).fillColor(COLORS.text)
    cell(doc, `Payee checks and confirmations of run ${summary.input.runId}`, writer.left, y, writer.width * 0.7)
    doc.font('regular').fontSize(8.5).fillColor(COLORS.muted)
    cell(
      doc,
      index === 0 ? countOf(summary.payeeChecks.length, 'row') + ' flagged or confirmed' : 'continued',
      writer.left + writer.width * 0.7,
      y + 2,
      writer.width * 0.3,
      'right',
    )
    y += 20
    rule(writer, y - 4)
    for (const check of checks)
      for (const line of checkLines(check)) {
        doc
          .font(line.tone === 'row' ? 'bold' : 'regular')
          .fontSize(8.5)
          .fillColor(line.tone === 'held' ? COLORS.warning : COLORS.text)
        cell(doc, line.text, writer.left + (line.tone === 'row' ? 0 : 14), y, writer.width - 14)
        y += 13
      }
  }
}

export async function runSummaryPdf(summary: RunSummary, options: RunSummaryPdfOptions): Promise<Buffer> {
  const { input } = summary
  assertPrintable('run summary', { payer: input.payer, description: input.description, file: input.fileName })
  for (const line of summary.lines) {
    assertPrintable('run summary', {
      [`reference of row ${line.row}`]: line.reference,
      [`beneficiary of row ${line.row}`]: line.beneficiary,
      [`reason of row ${line.row}`]: line.reason,
    })
  }
  for (const check of summary.payeeChecks)
    assertPrintable('run summary', {
      [`payee checks of row ${check.row}`]: check.flags.join('; '),
      [`confirmation of row ${check.row}`]: check.confirmation ?? '',
    })
  const issued = documentDateTime(options.issuedAt.toISOString(), options.timeZone)
  const writer = createPdf({
    title: `Run summary ${input.runId}`,
    subject: `Bulk payout run of ${input.fileName}`,
    author: input.payer,
    layout: 'landscape',
    watermark: watermarkOf(input.mode),
    footer: `Run summary ${input.runId} · ${input.fileName} · prepared ${issued} by ${input.preparedBy}`,
    pageCount: runSummaryPageCount(summary),
  })
  firstPage(writer, summary, issued, options.timeZone)
  await listPages(writer, summary)
  await payeeChecksPages(writer, summary)
  return writer.finish()
}

function facts(writer: PdfWriter, x: number, y: number, width: number, rows: Array<[string, string]>): number {
  const { doc } = writer
  for (const [label, value] of rows) {
    doc.font('regular').fontSize(8.5).fillColor(COLORS.muted)
    cell(doc, label, x, y, 120)
    doc.font('regular').fontSize(9).fillColor(COLORS.text)
    cell(doc, value, x + 124, y, width - 124)
    y += 14
  }
  return y
}

function heading(writer: PdfWriter, text: string, x: number, y: number, width: number): number {
  writer.doc.font('bold').fontSize(11).fillColor(COLORS.text)
  cell(writer.doc, text, x, y, width)
  return y + 18
}

function firstPage(writer: PdfWriter, summary: RunSummary, issued: string, timeZone: string | undefined): void {
  const { doc } = writer
  const { input } = summary
  const currency = input.currency
  let y = writer.top
  doc.font('bold').fontSize(18).fillColor(COLORS.text)
  cell(doc, 'Bulk run summary', writer.left, y, writer.width)
  y += 26
  doc.font('regular').fontSize(10).fillColor(COLORS.muted)
  cell(doc, `${input.description || input.fileName} · paid by ${input.payer}`, writer.left, y, writer.width)
  y += 16
  if (input.mode !== 'live') {
    doc.font('bold').fontSize(9).fillColor(COLORS.warning)
    cell(doc, `${MODE_WORDS[input.mode]}. Nothing in this summary is real money.`, writer.left, y, writer.width)
    y += 16
  }
  // The file and its SHA-256 on one full line: anyone can check the file filed with the books is this one.
  doc.font('regular').fontSize(8.5).fillColor(COLORS.muted)
  cell(doc, 'Source file', writer.left, y, 120)
  doc.fillColor(COLORS.text)
  cell(
    doc,
    `${input.fileName}${input.sheet ? ` (sheet ${input.sheet})` : ''}`,
    writer.left + 124,
    y,
    writer.width - 124,
  )
  y += 14
  doc.fillColor(COLORS.muted)
  cell(doc, 'SHA-256 of the file', writer.left, y, 120)
  doc.fillColor(COLORS.text)
  cell(doc, input.fileSha256, writer.left + 124, y, writer.width - 124)
  y += 24

  const half = (writer.width - 30) / 2
  const leftX = writer.left
  const rightX = writer.left + half + 30
  let left = heading(writer, 'The run', leftX, y, half)
  left = facts(writer, leftX, left, half, [
    ['Run ID', input.runId],
    ['Run started', documentDateTime(input.createdAt, timeZone)],
    ['Stage', RUN_STAGE_DOCUMENT_WORDS[input.stage]],
    ['Profile', `${input.profileName} (${MODE_WORDS[input.mode]})`],
    ['Prepared by', input.preparedBy],
    ['Prepared on', issued],
    ['Who pays the fees', input.merchantBearsCost ? 'We do (merchant bears the cost)' : 'Each recipient'],
    ...(input.retryOf ? ([['Retry of run', input.retryOf]] as Array<[string, string]>) : []),
  ])

  let right = heading(writer, 'By status', rightX, y, half)
  right = table(
    writer,
    rightX,
    right,
    half,
    ['Status', 'Rows', 'Amount'],
    summary.statuses.map((status) => [
      OUTCOME_WORDS[status.outcome],
      String(status.count),
      amountFigures(status.total, currency),
    ]),
    ['All rows', String(summary.lines.length), amountFigures(summary.listedTotal, currency)],
  )
  right += 10
  right = heading(writer, 'Fees and charges', rightX, right, half)
  const { fees } = summary
  const estimate = input.extras?.feesEstimate
  const rowsWord = (n: number): string => countOf(n, 'paid row')
  right = facts(writer, rightX, right, half, [
    ['Fees charged', `${amountFigures(fees.total, currency)} on ${rowsWord(fees.rows)}`],
    ...(fees.unread > 0 ? ([['Fees not read yet', rowsWord(fees.unread)]] as Array<[string, string]>) : []),
    [
      'Charged to the balance',
      fees.charged === null
        ? 'Nothing sent yet'
        : `${amountFigures(fees.charged, currency)} for ${rowsWord(fees.paidRows)}`,
    ],
    ...(fees.charged === null
      ? []
      : ([
          ['What was charged', input.merchantBearsCost ? 'Amounts and fees' : 'Amounts (fees paid by recipients)'],
          ['Not charged', 'Failed rows and rows not sent'],
        ] as Array<[string, string]>)),
    ...(estimate
      ? ([
          [
            'Fees estimated',
            `about ${amountFigures(estimate.total, currency)}, from your last ${countOf(estimate.payouts, 'payout')}`,
          ],
          ['Estimate at least', amountFigures(estimate.low, currency)],
          ['Estimate at most', amountFigures(estimate.high, currency)],
        ] as Array<[string, string]>)
      : []),
  ])
  if (summary.controlTotal) {
    const control = summary.controlTotal
    right += 10
    right = heading(writer, 'Control total', rightX, right, half)
    const matches = toMinorUnits(control.difference) === 0n
    right = facts(writer, rightX, right, half, [
      [
        `Sheet's TOTAL${control.sheetRow === undefined ? '' : ` (row ${control.sheetRow})`}`,
        amountFigures(control.sheetTotal, currency),
      ],
      ['Sum of the rows', amountFigures(control.rowsTotal, currency)],
      ['Check', matches ? 'Matches' : differenceWords(control.difference, currency)],
    ])
  }

  y = Math.max(left, right) + 10
  const dropped = input.extras?.droppedAtImport ?? []
  if (summary.notSent.length > 0 || dropped.length > 0) {
    y = heading(writer, 'Rows not sent, by reason', writer.left, y, writer.width)
    const shown = summary.notSent.slice(0, MAX_REASONS)
    const hidden = summary.notSent.slice(MAX_REASONS)
    const lines = shown.map((entry) => [entry.reason, String(entry.rows), amountFigures(entry.total, currency)])
    if (hidden.length > 0) {
      const rows = hidden.reduce((n, entry) => n + entry.rows, 0)
      lines.push([`${countOf(hidden.length, 'more reason')} (listed row by row below)`, String(rows), ''])
    }
    for (const entry of dropped) lines.push([`Left out at import: ${entry.reason}`, String(entry.rows), ''])
    table(writer, writer.left, y, writer.width * 0.7, ['Reason', 'Rows', 'Amount'], lines, null)
  }
}

/** A small table: header, lines and an optional total line; returns the y below it. */
function table(
  writer: PdfWriter,
  x: number,
  y: number,
  width: number,
  headers: readonly [string, string, string],
  lines: ReadonlyArray<readonly string[]>,
  total: readonly [string, string, string] | null,
): number {
  const { doc } = writer
  const widths = [width - 170, 50, 120]
  const xs = [x, x + widths[0]!, x + widths[0]! + widths[1]!]
  const row = (values: readonly string[], font: 'regular' | 'bold', color: string): void => {
    doc.font(font).fontSize(9).fillColor(color)
    values.forEach((value, i) => cell(doc, value, xs[i]!, y, widths[i]! - 6, i === 0 ? 'left' : 'right'))
    y += 14
  }
  row(headers, 'bold', COLORS.muted)
  for (const line of lines) row(line, 'regular', COLORS.text)
  if (total) {
    writer.doc
      .save()
      .moveTo(x, y - 2)
      .lineTo(x + width, y - 2)
      .lineWidth(0.5)
      .strokeColor(COLORS.rule)
      .stroke()
      .restore()
    y += 2
    row(total, 'bold', COLORS.text)
  }
  return y
}

function differenceWords(difference: string, currency: string): string {
  const minor = toMinorUnits(difference)
  return minor > 0n
    ? `TOTAL exceeds the rows by ${amountFigures(minor, currency)}`
    : `Rows exceed the TOTAL by ${amountFigures(-minor, currency)}`
}

async function listPages(writer: PdfWriter, summary: RunSummary): Promise<void> {
  const { doc } = writer
  const currency = summary.input.currency
  const widths = columnWidths(writer, summary)
  const xs: number[] = []
  widths.reduce((x, width) => (xs.push(x), x + width), writer.left)

  let running = 0n
  let runningPaid = 0n
  const pages = Math.max(1, Math.ceil(summary.lines.length / ROWS_PER_PAGE))
  for (let page = 0; page < pages; page++) {
    // Main answers other work between pages.
    if (page > 0) await nextTurn()
    doc.addPage()
    let y = writer.top
    doc.font('bold').fontSize(11).fillColor(COLORS.text)
    cell(doc, `Payouts of run ${summary.input.runId}`, writer.left, y, writer.width / 2)
    doc.font('regular').fontSize(8.5).fillColor(COLORS.muted)
    cell(
      doc,
      page === 0
        ? `${countOf(summary.lines.length, 'row')}, in the order of the sheet`
        : `Carried forward: ${amountFigures(running, currency)} · paid ${amountFigures(runningPaid, currency)}`,
      writer.left + writer.width / 2,
      y + 2,
      writer.width / 2,
      'right',
    )
    y += 20
    doc.font('bold').fontSize(7.5).fillColor(COLORS.muted)
    COLUMNS.forEach((column, i) => cell(doc, column.header, xs[i]! + 2, y, widths[i]! - 6, column.align))
    y += 12
    rule(writer, y - 2)

    const lines = summary.lines.slice(page * ROWS_PER_PAGE, (page + 1) * ROWS_PER_PAGE)
    if (lines.length === 0) {
      doc.font('regular').fontSize(9).fillColor(COLORS.muted)
      cell(doc, 'The run has no rows.', writer.left, y + 2, writer.width)
    }
    let pageTotal = 0n
    lines.forEach((line, index) => {
      if (index % 2 === 1)
        doc
          .save()
          .rect(writer.left, y - 2, writer.width, ROW_HEIGHT)
          .fill(COLORS.band)
          .restore()
      drawLine(writer, line, xs, widths, y, currency)
      if (line.amount !== null) {
        const minor = toMinorUnits(line.amount)
        pageTotal += minor
        running += minor
        if (line.outcome === 'paid') runningPaid += minor
      }
      y += ROW_HEIGHT
    })

    y = writer.bottom - 30
    rule(writer, y - 4)
    doc.font('bold').fontSize(8.5).fillColor(COLORS.text)
    cell(
      doc,
      `Page total: ${amountFigures(pageTotal, currency)} (${countOf(lines.length, 'row')})`,
      writer.left,
      y,
      writer.width / 3,
    )
    cell(
      doc,
      `Running total: ${amountFigures(running, currency)}`,
      writer.left + writer.width / 3,
      y,
      writer.width / 3,
      'right',
    )
    cell(
      doc,
      `Paid so far: ${amountFigures(runningPaid, currency)}`,
      writer.left + (2 * writer.width) / 3,
      y,
      writer.width / 3,
      'right',
    )
  }
}

/**
 * The list's column widths for this run: the Reference column as wide as the run's longest
 * reference needs, up to REFERENCE_MAX_WIDTH, the width taken from Beneficiary, Bank and Reason in
 * proportion (each keeps at least two thirds of its own); a reference wider still is set smaller
 * (drawLine). References are listed whole: they are what a payment is looked up by.
 */
function columnWidths(writer: PdfWriter, summary: RunSummary): number[] {
  const reasonWidth = writer.width - COLUMNS.reduce((sum, column) => sum + column.width, 0)
  const widths: number[] = COLUMNS.map((column) => (column.width === 0 ? reasonWidth : column.width))
  writer.doc.font('regular').fontSize(LIST_SIZE)
  let widest = 0
  for (const line of summary.lines) widest = Math.max(widest, writer.doc.widthOfString(line.reference))
  const wanted = Math.min(REFERENCE_MAX_WIDTH, Math.ceil(widest) + 8)
  const extra = wanted - widths[1]!
  if (extra <= 0) return widths
  const givers = [2, 3, 7]
  const spare = givers.reduce((sum, i) => sum + widths[i]! / 3, 0)
  const taken = Math.min(extra, spare)
  for (const i of givers) widths[i] = widths[i]! - (taken * (widths[i]! / 3)) / spare
  widths[1] = widths[1]! + taken
  return widths
}

function drawLine(
  writer: PdfWriter,
  line: SummaryLine,
  xs: number[],
  widths: number[],
  y: number,
  currency: string,
): void {
  const { doc } = writer
  const values = [
    String(line.row),
    line.reference,
    line.beneficiary,
    line.bank,
    line.account,
    line.amount === null ? `as read: ${line.amountAsRead}` : amountFigures(line.amount, currency),
    OUTCOME_WORDS[line.outcome],
    line.reason,
  ]
  doc.font('regular').fontSize(LIST_SIZE)
  values.forEach((value, i) => {
    doc.fillColor(i === 6 && (line.outcome === 'failed' || line.outcome === 'error') ? COLORS.warning : COLORS.text)
    if (i === 1)
      wholeCell(doc, value, xs[i]! + 2, y, widths[i]! - 6, { size: LIST_SIZE, smallest: SMALLEST_REFERENCE_SIZE })
    else cell(doc, value, xs[i]! + 2, y, widths[i]! - 6, COLUMNS[i]!.align)
  })
}
