/**
 * Finding the header row and mapping its columns to fields by name, the way accountants write
 * them ("Acct No", "Beneficiary Name", "Amount (NGN)", "E-mail", "Narration/Description").
 */
import { BULK_FIELDS, type BulkColumn, type BulkColumnMapping, type BulkField } from '../domain/bulk'
import { cellText, type SheetRow } from './cells'
import { IMPORT_LIMITS } from './limits'

/** Names a column may carry, already normalised (see normaliseHeader). */
const SYNONYMS: Readonly<Record<BulkField, readonly string[]>> = {
  reference: [
    'reference',
    'ref',
    'ref no',
    'reference no',
    'reference number',
    'payment reference',
    'payment ref',
    'transaction reference',
    'transaction ref',
    'txn ref',
    'your reference',
  ],
  amount: ['amount', 'amt', 'amount to pay', 'payment amount', 'net pay', 'net amount', 'sum', 'value', 'total'],
  bank_code: [
    'bank code',
    'bank',
    'bank id',
    'bank no',
    'bank number',
    'bank sort code',
    'sort code',
    'nibss code',
    'bank cd',
    'beneficiary bank code',
    'beneficiary bank',
  ],
  account_number: [
    'account number',
    'account no',
    'account num',
    'account',
    'acct no',
    'acct number',
    'acct num',
    'acct',
    'acc no',
    'acc number',
    'a c no',
    'nuban',
    'beneficiary account',
    'beneficiary account number',
    'bank account',
    'bank account number',
  ],
  customer_name: [
    'customer name',
    'customer',
    'name',
    'full name',
    'beneficiary name',
    'beneficiary',
    'account name',
    'acct name',
    'payee',
    'payee name',
    'recipient',
    'recipient name',
    'employee name',
    'staff name',
    'vendor name',
    'supplier name',
  ],
  customer_email: [
    'customer email',
    'email',
    'e mail',
    'email address',
    'e mail address',
    'mail',
    'beneficiary email',
    'payee email',
    'recipient email',
  ],
  narration: [
    'narration',
    'description',
    'narration description',
    'memo',
    'remark',
    'remarks',
    'purpose',
    'details',
    'payment details',
    'note',
    'notes',
    'comment',
  ],
}

/** Units and currencies accountants append to a header ("Amount (NGN)", "Amount NGN", "Amount ₦"). */
const NOISE_WORDS = new Set(['ngn', 'kes', 'naira', 'ksh', 'kshs', 'shillings'])

/** Lower case, marks and punctuation dropped, parenthesised and currency words removed, spaces single. */
export function normaliseHeader(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/\([^)]*\)|\[[^\]]*\]/g, ' ')
    .replace(/_/g, ' ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .split(' ')
    .filter((word) => word !== '' && !NOISE_WORDS.has(word))
    .join(' ')
}

const EXACT = new Map<string, BulkField>()
for (const field of BULK_FIELDS) {
  EXACT.set(field.replace(/_/g, ' '), field)
  for (const name of SYNONYMS[field]) if (!EXACT.has(name)) EXACT.set(name, field)
}

/**
 * The field a header names, and how sure: 2 = the whole header is a known name, 1 = it contains
 * one as whole words ("Narration/Description" -> narration), 0 = none.
 */
export function fieldForHeader(text: string): { field: BulkField; strength: 1 | 2 } | null {
  const normal = normaliseHeader(text)
  if (normal === '') return null
  const exact = EXACT.get(normal)
  if (exact) return { field: exact, strength: 2 }
  // Longest known name contained as whole words wins ("beneficiary account no" -> account_number).
  const padded = ` ${normal} `
  let best: { field: BulkField; length: number } | null = null
  for (const [name, field] of EXACT) {
    if (name.length > (best?.length ?? 0) && padded.includes(` ${name} `)) best = { field, length: name.length }
  }
  return best ? { field: best.field, strength: 1 } : null
}

/** Each field goes to at most one column: the surest, then the leftmost. */
export function autoMapping(headers: readonly string[]): (BulkField | null)[] {
  const candidates = headers.map((header, index) => ({ index, match: fieldForHeader(header) }))
  const mapping: (BulkField | null)[] = headers.map(() => null)
  const taken = new Set<BulkField>()
  for (const strength of [2, 1] as const) {
    for (const { index, match } of candidates) {
      if (!match || match.strength !== strength || taken.has(match.field)) continue
      mapping[index] = match.field
      taken.add(match.field)
    }
  }
  return mapping
}

/** Distinct fields a row's cells name: how much the row looks like a payout header. */
export function headerScore(cells: readonly string[]): number {
  const fields = new Set<BulkField>()
  for (const cell of cells) {
    const match = fieldForHeader(cell)
    if (match) fields.add(match.field)
  }
  return fields.size
}

/** A header names at least this many fields (titles and notes above it name fewer). */
export const MIN_HEADER_SCORE = 3

/**
 * The header row among the first rows: the one naming the most fields (at least three), the
 * earliest on a tie. Titles, notes and merged cells above it score lower. Null when none does.
 */
export function detectHeaderRow(rows: readonly SheetRow[]): number | null {
  let best: { row: number; score: number } | null = null
  for (const row of rows.slice(0, IMPORT_LIMITS.headerSearchRows)) {
    const score = headerScore(row.cells.map(cellText))
    if (score >= MIN_HEADER_SCORE && score > (best?.score ?? 0)) best = { row: row.row, score }
  }
  return best?.row ?? null
}

/** The key a confirmed mapping is remembered under: the header texts, normalised, in order. */
export function layoutKey(headers: readonly string[]): string {
  return headers.map((header) => header.trim().toLowerCase().replace(/\s+/g, ' ')).join('\u001f')
}

/** The columns under a header row, with their mapping and a few sample values from the rows below. */
export function describeColumns(
  rows: readonly SheetRow[],
  headerRow: number,
  mapping?: BulkColumnMapping,
  samples = 3,
): BulkColumn[] {
  const header = rows.find((row) => row.row === headerRow)
  if (!header) return []
  const texts = header.cells.map(cellText)
  const below = rows.filter((row) => row.row > headerRow).slice(0, samples)
  const fields = mapping ?? autoMapping(texts)
  return texts.map((text, index) => ({
    index,
    header: text,
    field: fields[index] ?? null,
    samples: below.map((row) => cellText(row.cells[index])).filter((value) => value !== ''),
  }))
}
