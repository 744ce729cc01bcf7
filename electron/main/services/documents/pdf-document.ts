/**
 * The PDF primitives every document of the desk is drawn with (pdfkit, see docs/decisions/):
 * A4 pages, DejaVu Sans embedded and subset (so "₦", "GH₵" and names with accents print, and the
 * text extracts as Unicode), a watermark on every page of a document that is not live money, a
 * footer with the page number, and text cut to a width with an ellipsis instead of wrapping into
 * the next cell. The bytes stream out of pdfkit as each page is done; `finish()` collects them.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import PDFDocument from 'pdfkit'

const require = createRequire(__filename)

/** DejaVu Sans covers Latin with every accent, the naira, cedi and rand signs, Greek and Cyrillic. */
const FONT_FILES = {
  regular: 'dejavu-fonts-ttf/ttf/DejaVuSans.ttf',
  bold: 'dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf',
} as const

/**
 * The font files, read once. Each document parses them anew: a parsed font shared between
 * documents keeps the glyphs the first document's subset made without their characters, and the
 * next document's text then loses them when it is copied or extracted.
 */
let fontBytes: { regular: Buffer; bold: Buffer } | null = null
function fonts(): { regular: Buffer; bold: Buffer } {
  fontBytes ??= {
    regular: readFileSync(require.resolve(FONT_FILES.regular)),
    bold: readFileSync(require.resolve(FONT_FILES.bold)),
  }
  return fontBytes
}

export type Pdf = PDFKit.PDFDocument

export const COLORS = {
  text: '#1f2328',
  muted: '#57606a',
  rule: '#d0d7de',
  band: '#f3f5f7',
  warning: '#b42318',
  watermark: '#c62828',
} as const

export interface PdfOptions {
  title: string
  subject: string
  /** Shown in the document's properties; who or what made it. */
  author: string
  layout?: 'portrait' | 'landscape'
  /** Drawn across every page (Sandbox and test documents): it can never pass as a real one. */
  watermark?: string | null
  /** The left part of every page's footer; the page number is on the right. */
  footer: string
  /** The number of pages when known in advance ("Page 2 of 7"); otherwise "Page 2". */
  pageCount?: number
}

export interface PdfWriter {
  doc: Pdf
  /** Usable area of a page. */
  left: number
  right: number
  top: number
  bottom: number
  width: number
  /** Ends the document and gives its bytes. */
  finish(): Promise<Buffer>
}

const MARGIN = 40
const FOOTER_HEIGHT = 24

export function createPdf(options: PdfOptions): PdfWriter {
  const doc = new PDFDocument({
    size: 'A4',
    layout: options.layout ?? 'portrait',
    margins: { top: MARGIN, bottom: MARGIN, left: MARGIN, right: MARGIN },
    info: { Title: options.title, Subject: options.subject, Author: options.author, Creator: 'Payout Desk' },
    autoFirstPage: false,
    compress: true,
  })
  // Registered before either is opened: pdfkit keeps a font under the name it was first opened by,
  // so a font first opened by path (the constructor's `font` option) would be read again from disk
  // on every doc.font('regular').
  const { regular, bold } = fonts()
  doc.registerFont('regular', regular)
  doc.registerFont('bold', bold)
  doc.font('bold').font('regular')
  const chunks: Buffer[] = []
  const ended = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk))
    doc.on('end', () => resolve(Buffer.concat(chunks)))
    doc.on('error', reject)
  })

  let pageNumber = 0
  doc.on('pageAdded', () => {
    pageNumber += 1
    decoratePage(doc, options, pageNumber)
  })
  doc.addPage()

  const writer: PdfWriter = {
    doc,
    left: MARGIN,
    right: doc.page.width - MARGIN,
    top: MARGIN,
    bottom: doc.page.height - MARGIN - FOOTER_HEIGHT,
    width: doc.page.width - 2 * MARGIN,
    finish() {
      doc.end()
      return ended
    },
  }
  return writer
}

/** Watermark under the content, footer at the bottom; the text position is restored for the content. */
function decoratePage(doc: Pdf, options: PdfOptions, pageNumber: number): void {
  const { width, height } = doc.page
  doc.save()
  if (options.watermark) {
    // Corner to corner, three quarters of the diagonal long, under everything else.
    const diagonal = Math.hypot(width, height)
    doc.font('bold').fontSize(100)
    const size = (100 * diagonal * 0.75) / doc.widthOfString(options.watermark)
    doc
      .fontSize(size)
      .fillColor(COLORS.watermark)
      .fillOpacity(0.12)
      .rotate((-Math.atan2(height, width) * 180) / Math.PI, { origin: [width / 2, height / 2] })
    const textWidth = doc.widthOfString(options.watermark)
    doc.text(options.watermark, width / 2 - textWidth / 2, height / 2 - size * 0.6, { lineBreak: false })
  }
  doc.restore()
  doc.save()
  const y = height - MARGIN - 12
  doc
    .moveTo(MARGIN, y - 6)
    .lineTo(width - MARGIN, y - 6)
    .lineWidth(0.5)
    .strokeColor(COLORS.rule)
    .stroke()
  doc.font('regular').fontSize(7.5).fillColor(COLORS.muted).fillOpacity(1)
  const pageText = options.pageCount ? `Page ${pageNumber} of ${options.pageCount}` : `Page ${pageNumber}`
  const pageWidth = doc.widthOfString(pageText)
  doc.text(fitted(doc, options.footer, width - 2 * MARGIN - pageWidth - 16), MARGIN, y, { lineBreak: false })
  doc.text(pageText, width - MARGIN - pageWidth, y, { lineBreak: false })
  doc.restore()
  doc.fillColor(COLORS.text).fillOpacity(1).font('regular').fontSize(10)
  doc.x = MARGIN
  doc.y = MARGIN
}

/** The text as it fits in `width` at the current font and size, cut with "…" when it does not. */
export function fitted(doc: Pdf, text: string, width: number): string {
  const single = /\s\s|[\t\n\r]|^\s|\s$/.test(text) ? text.replace(/\s+/g, ' ').trim() : text
  if (doc.widthOfString(single) <= width) return single
  let low = 0
  let high = single.length
  while (low < high) {
    const middle = Math.ceil((low + high) / 2)
    if (doc.widthOfString(`${single.slice(0, middle)}…`) <= width) low = middle
    else high = middle - 1
  }
  return `${single.slice(0, low).trimEnd()}…`
}

/**
 * One line of text at (x, y) kept whole where a cut would lose what it is (a reference): in `size`
 * when it fits `width`, else in a smaller size that fits, down to `smallest`; cut with "…" only
 * below that. Leaves the font at `size`.
 */
export function wholeCell(
  doc: Pdf,
  text: string,
  x: number,
  y: number,
  width: number,
  sizes: { size: number; smallest: number },
): void {
  const natural = doc.fontSize(sizes.size).widthOfString(text)
  const fitting =
    natural <= width ? sizes.size : Math.max(sizes.smallest, Math.floor(((sizes.size * width) / natural) * 10) / 10)
  doc.fontSize(fitting)
  // Smaller type sits on the same baseline as the row's other cells.
  cell(doc, text, x, y + (sizes.size - fitting) * 0.8, width)
  doc.fontSize(sizes.size)
}

/** One line of text at (x, y), cut to `width`, aligned in it. */
export function cell(
  doc: Pdf,
  text: string,
  x: number,
  y: number,
  width: number,
  align: 'left' | 'right' = 'left',
): void {
  const shown = fitted(doc, text, width)
  const offset = align === 'right' ? width - doc.widthOfString(shown) : 0
  doc.text(shown, x + offset, y, { lineBreak: false })
}

/** A thin horizontal rule across the usable width at y. */
export function rule(writer: PdfWriter, y: number, color: string = COLORS.rule): void {
  writer.doc.save().moveTo(writer.left, y).lineTo(writer.right, y).lineWidth(0.5).strokeColor(color).stroke().restore()
}
