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
    'vendor',
    'supplier',
    'employee',
    'staff',
    'payee full name',
    'employee full name',
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
  payee_id: [
    'payee id',
    'payee code',
    'payee no',
    'employee id',
    'employee number',
    'employee no',
    'employee code',
    'emp id',
    'emp no',
    'staff id',
    'staff number',
    'staff no',
    'vendor id',
    'vendor code',
    'vendor no',
    'supplier id',
    'supplier code',
    'supplier no',
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

/**
 * Who is paid, in one word: a header that is only this word names the recipient ("Vendor",
 * "Employee"), but beside another field's word it only says whose that is ("Vendor Bank",
 * "Beneficiary Acct", "Customer Ref", "Employee Email"), and the other word decides.
 */
const PARTY_WORDS = new Set([
  'vendor',
  'supplier',
  'payee',
  'employee',
  'staff',
  'beneficiary',
  'recipient',
  'customer',
])

/** Known name -> its field and rank (0 = the field's own name, then the order of SYNONYMS). */
const EXACT = new Map<string, { field: BulkField; rank: number }>()
for (const field of BULK_FIELDS) {
  EXACT.set(field.replace(/_/g, ' '), { field, rank: 0 })
  SYNONYMS[field].forEach((name, index) => {
    if (!EXACT.has(name)) EXACT.set(name, { field, rank: index + 1 })
  })
}

export interface HeaderMatch {
  field: BulkField
  /** 2 = the whole header is a known name; 1 = it contains one as whole words. */
  strength: 1 | 2
  /** Among equally strong matches, lower is a better name for the field. */
  rank: number
}

/** The field a header names, or null ("Narration/Description" contains "narration"). */
export function fieldForHeader(text: string): HeaderMatch | null {
  const normal = normaliseHeader(text)
  if (normal === '') return null
  const exact = EXACT.get(normal)
  if (exact) return { field: exact.field, strength: 2, rank: exact.rank }
  // Longest known name contained as whole words wins ("beneficiary account no" -> account_number).
  const padded = ` ${normal} `
  let best: { field: BulkField; length: number; rank: number } | null = null
  for (const [name, known] of EXACT) {
    if (PARTY_WORDS.has(name)) continue
    if (name.length > (best?.length ?? 0) && padded.includes(` ${name} `))
      best = { field: known.field, length: name.length, rank: known.rank }
  }
  return best ? { field: best.field, strength: 1, rank: best.rank } : null
}

/** Each field goes to one column at most: the surest match, then the better name, then the leftmost. */
export function autoMapping(headers: readonly string[]): (BulkField | null)[] {
  const candidates = headers
    .map((header, index) => ({ index, match: fieldForHeader(header) }))
    .filter((candidate): candidate is { index: number; match: HeaderMatch } => candidate.match !== null)
    .sort((a, b) => b.match.strength - a.match.strength || a.match.rank - b.match.rank || a.index - b.index)
  const mapping: (BulkField | null)[] = headers.map(() => null)
  const taken = new Set<BulkField>()
  for (const { index, match } of candidates) {
    if (taken.has(match.field)) continue
    mapping[index] = match.field
    taken.add(match.field)
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
