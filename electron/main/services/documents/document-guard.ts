/**
 * The last check before text goes into a PDF: never a key, never a card number (the same tests
 * the export guard applies to spreadsheet cells). A narration or a name typed with a card number
 * in it stops the document with a clear message; nothing is written.
 */
import { AppFailure } from '../../../../shared/result'
import { looksLikeCardNumber, looksLikeKey } from '../export/export-guard'

export function assertPrintable(what: string, fields: Readonly<Record<string, string | null | undefined>>): void {
  for (const [label, value] of Object.entries(fields)) {
    if (!value) continue
    if (looksLikeKey(value) || looksLikeCardNumber(value)) {
      throw new AppFailure(
        'bad_request',
        `The ${what} was not made: its ${label} looks like a key or a card number, which never goes into a document.`,
      )
    }
  }
}
