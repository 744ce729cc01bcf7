/**
 * The content hash of a run version: what an approval binds to and what the releasing desk
 * recomputes before anything leaves. It covers every row's reference, amount, bank, account, name,
 * e-mail and narration (everything a batch request carries for the payout), in order, the
 * currency and who bears the fees. The team database computes the same text from the rows it
 * stored (payout_desk.run_content_text) and refuses a version whose hashes differ.
 */
import { PAYOUT_ROW_FIELDS } from '../domain/payout-row'
import type { TeamRunContent, TeamRunContentRow } from '../domain/team'
import { hashField, sha256Hex } from './canonical-text'

export const RUN_CONTENT_HEADER = 'payout-desk run content v1'

/** Half of a UTF-16 surrogate pair: UTF-8 cannot carry it, and PostgreSQL refuses it. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/** Refusals of content that cannot be hashed the same way on both sides. */
export function runContentProblem(content: TeamRunContent): string | null {
  if (!/^[A-Z]{3}$/.test(content.currency)) return 'the currency must be three capital letters'
  if (content.rows.length === 0) return 'a run has at least one row'
  for (const [index, row] of content.rows.entries()) {
    if (!/^(0|[1-9][0-9]{0,14})\.[0-9]{2}$/.test(row.amount) || /^0\.00$/.test(row.amount))
      return `row ${index + 1}: the amount must be a plain amount with two decimals, more than zero`
    for (const [field, value] of Object.entries(row)) {
      if (typeof value !== 'string') return `row ${index + 1}: ${field} must be text`
      if (value.includes('\u0000')) return `row ${index + 1}: ${field} holds a NUL character`
      if (LONE_SURROGATE.test(value))
        return `row ${index + 1}: ${field} holds a broken character (half of a UTF-16 pair)`
    }
  }
  return null
}

export function runContentText(content: Pick<TeamRunContent, 'currency' | 'merchantBearsCost' | 'rows'>): string {
  let text = ''
  for (const chunk of runContentChunks(content)) text += chunk
  return text
}

/**
 * The canonical text in pieces (the header, then the rows a few hundred at a time), for a hash
 * fed piece by piece: the same bytes as runContentText, without one string of the whole run.
 */
export function* runContentChunks(
  content: Pick<TeamRunContent, 'currency' | 'merchantBearsCost' | 'rows'>,
  rowsPerChunk = 500,
): Generator<string> {
  yield [
    RUN_CONTENT_HEADER,
    `currency:${content.currency}`,
    `merchant_bears_cost:${content.merchantBearsCost ? 'true' : 'false'}`,
    `rows:${content.rows.length}`,
    '',
  ].join('\n')
  for (let start = 0; start < content.rows.length; start += rowsPerChunk) {
    let chunk = ''
    const end = Math.min(start + rowsPerChunk, content.rows.length)
    for (let index = start; index < end; index++) chunk += `${rowText(content.rows[index]!)}\n`
    yield chunk
  }
}

/** A row's fields in the definition's order, tab-separated: the amount as it is, the others escaped. */
function rowText(row: TeamRunContentRow): string {
  let text = ''
  for (let i = 0; i < PAYOUT_ROW_FIELDS.length; i++) {
    const field = PAYOUT_ROW_FIELDS[i]!
    text += `${i === 0 ? '' : '\t'}${field === 'amount' ? row.amount : hashField(row[field])}`
  }
  return text
}

/** SHA-256 (hex) of the run's canonical content text. */
export function runContentHash(
  content: Pick<TeamRunContent, 'currency' | 'merchantBearsCost' | 'rows'>,
): Promise<string> {
  return sha256Hex(runContentText(content))
}

/** The exact total of a run's amounts (two-decimal strings), as a two-decimal string. */
export function runContentTotal(rows: ReadonlyArray<Pick<TeamRunContentRow, 'amount'>>): string {
  let cents = 0n
  for (const row of rows) cents += BigInt(row.amount.replace('.', ''))
  const text = cents.toString().padStart(3, '0')
  return `${text.slice(0, -2)}.${text.slice(-2)}`
}
