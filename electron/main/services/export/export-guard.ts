/**
 * The last check before anything is written to an export: never a key, never a card number. A
 * column named like a secret or card field, or a value that looks like an API key or a full card
 * number (15 to 19 digits passing Luhn), stops the export with a clear message instead.
 */
import { AppFailure } from '../../../../shared/result'
import type { ExportTable } from '../../../../shared/domain/export'

const FORBIDDEN_COLUMN =
  /^(pan|cvv|cvv2|cvc|pin|otp|number|card_?number|charge_?data|secret.*|.*_key|key|api_?key|authorization|password|expiry.*)$/i

/** sk_test_..., sk_live_..., pk_..., or a bearer header pasted into a narration. */
const KEY_LIKE = /\b(?:sk|pk|rk)_(?:test|live)_[A-Za-z0-9]{4,}|\bBearer\s+\S{8,}/

const DIGIT_RUN = /\d[\d -]{13,}\d/g

function passesLuhn(digits: string): boolean {
  let sum = 0
  let double = false
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48
    if (double) {
      d *= 2
      if (d > 9) d -= 9
    }
    sum += d
    double = !double
  }
  return sum % 10 === 0
}

/** True when the text holds something that reads as a full card number. */
export function looksLikeCardNumber(text: string): boolean {
  for (const match of text.matchAll(DIGIT_RUN)) {
    const digits = match[0].replace(/[ -]/g, '')
    if (digits.length >= 15 && digits.length <= 19 && passesLuhn(digits)) return true
  }
  return false
}

/**
 * Cheap first look, without a regular expression: a card number needs 15 digits, a key an
 * underscore or "Bearer". Most cells (dates have 14 digits, references and amounts fewer) stop here.
 */
function worthALook(text: string): boolean {
  let digits = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code >= 48 && code <= 57) {
      if (++digits >= 15) return true
    } else if (code === 95) return true
  }
  return text.includes('Bearer')
}

export function looksLikeKey(text: string): boolean {
  return KEY_LIKE.test(text)
}

export function assertExportable(table: ExportTable): void {
  for (const column of table.columns) {
    if (FORBIDDEN_COLUMN.test(column.key)) {
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
