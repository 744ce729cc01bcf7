/** The documents service's public face (decision 094): PDFs (and the reconciliation report's workbook) drawn in the PDF worker. */
export { openPdfRenderer, renderPdf } from './pdf-renderer'
export type { PdfJob } from './pdf-renderer'
export { reconciliationReportFileName } from './reconciliation-report-pdf'
