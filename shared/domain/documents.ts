/**
 * Documents the desk makes in main (PDF payment advices and run summaries) and how one was
 * delivered: saved where the user chose, or printed.
 */

/** Save through the save dialog, or print through the system print dialog. */
export const DOCUMENT_OUTPUTS = ['save', 'print'] as const
export type DocumentOutput = (typeof DOCUMENT_OUTPUTS)[number]

export type PrintOutcome = 'printed' | 'cancelled' | 'failed' | 'opened_in_browser'

export interface DocumentResult {
  /** The file name the document has (and the save dialog offered). */
  fileName: string
  /** Where it was saved; null when the dialog was cancelled or it was printed. */
  path: string | null
  /** How printing ended; null when it was saved. */
  printed: PrintOutcome | null
  /** Documents in the file: 1, or the advices in a ZIP. */
  documents: number
  /** The user cancelled while it was being made: nothing was saved. */
  cancelled?: true
}

/** A PDF handed to the browser's own print (bridge only): the renderer opens it in a tab. */
export interface PrintInBrowser {
  title: string
  fileName: string
  base64: string
}
