/**
 * The last check before anything is written to an export: never a key, never a card number. A
 * column named like a secret or card field, or a value that looks like an API key or a full card
 * number (by pattern and Luhn: shared/rules/sensitive-data.ts), stops the export with a clear
 * message instead.
 */
import { AppFailure } from '../../../../shared/result'
import { isSecretFieldName, looksLikeCardNumber } from '../../../../shared/rules/sensitive-data'
import type { ExportTable } from '../../../../shared/domain/export'

/** A column named like card data or a secret (by the parts of its name, as every sink), or an expiry. */
function forbiddenColumn(key: string): boolean {
  return isSecretFieldName(key) || /^expiry/i.test(key)
}

/** sk_test_..., sk_live_..., pk_..., or a bearer header pasted into a narration. */
const KEY_LIKE = /\b(?:sk|pk|rk)_(?:test|live)_[A-Za-z0-9]{4,}|\bBearer\s+\S{8,}/

/**
 * Cheap first look, without a regular expression: a card number needs 13 digits, a key an
 * underscore or "Bearer". Most cells (references and amounts have fewer digits) stop here; a cell
 * with any character beyond ASCII (digits of another script, invisible spaces) is always looked at.
 */
function worthALook(text: string): boolean {
  let digits = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code >= 48 && code <= 57) {
      if (++digits >= 13) return true
    } else if (code === 95 || code > 127) return true
  }
  return text.includes('Bearer')
}

export { looksLikeCardNumber }

export function looksLikeKey(text: string): boolean {
  return KEY_LIKE.test(text)
}

export function assertExportable(table: ExportTable): void {
  for (const column of table.columns) {
    if (forbiddenColumn(column.key)) {
      throw new AppFailure('bad_request', `Export refused: the column "${column.header}" may hold card data or a key.`)
    }
  }
  const keys = table.columns.map((column) => column.key)
  const rows = table.rows
  for (let index = 0; index < rows.length; index++) {
    const row = rows[index] ?? {}
    for (let c = 0; c < keys.length; c++) {
      const value = row[keys[c] as string]
      if (typeof value !== 'string' || value.length < 8 || !worthALook(value)) continue
      if (looksLikeKey(value) || looksLikeCardNumber(value)) {
        throw new AppFailure(
          'bad_request',
          `Export refused: row ${index + 1}, column "${table.columns[c]?.header ?? ''}" looks like a key or a card number; nothing was written.`,
        )
      }
    }
  }
}
