/**
 * Row by row validation (decision 19). Reading a row gives a BulkItem of trimmed texts (a bank name
 * read as its code, the run-wide e-mail and narration where the row has none, an account cleaned
 * of spaces and dashes, and where it came from a number cell), the findings only the cells can show
 * and notes; `itemFindings` checks an item, so the grid can re-validate an edited row with the same
 * rules (a number-cell account's finding included: it is derived from the item); and
 * `sheetFindings` looks across rows (duplicate references, the same payment again: decision 57).
 */
import type {
  BulkColumnMapping,
  BulkCurrency,
  BulkField,
  BulkFinding,
  BulkItem,
  RunWideField,
  RunWideValues,
} from '../domain/bulk'
import type { BankMatcher } from '../banks/match-bank'
import { formatMoney } from '../money'
import { emailProblem } from '../rules/common'
import { CUSTOMER_NAME_MAX_LENGTH, NARRATION_MAX_LENGTH } from '../rules/payouts'
import { looksLikeCardNumber } from '../rules/sensitive-data'
import { holdsMaskedCardNumber } from '../rules/card-masking'
import { accountNumberProblem, cleanedAccountNumber, digitsOfDecimalNumber } from './account-number'
import { bankFinding, bankNameOf } from './bank-cell'
import { amountProblemOf, normaliseAmount, numberCellDecimal } from './amount'
import { COUNTRY_OF_CURRENCY } from './banks'
import { cellText, isNumberCell, type SheetCell, type SheetRow } from './cells'
import { GENERATED_REFERENCE_PREFIX, generatedReference } from './references'
import { BULK_PAYOUT_REFERENCE_LENGTH } from '../rules/spec-limits'

export interface ValidationContext {
  currency: BulkCurrency
  /** Valid bank codes of the currency's country. */
  bankCodes: ReadonlySet<string>
  /** Bank names in the bank column are matched with this (decision 33); without it only codes are read. */
  bankNames?: BankMatcher
  /** The other country's banks: a bank of the wrong country is said to be one (decision 55). */
  otherBanks?: BankMatcher
}

export interface ReadContext extends ValidationContext {
  /** SHA-256 (hex) of the file, for references of rows without one. */
  sha256: string
  /** One e-mail and one narration for rows whose own cell is empty or absent (decision 53). */
  runWide?: RunWideValues
  /**
   * Some bank of this sheet is a bank of the other country only: a name both countries have
   * ("Stanbic") is then not taken for this country's bank by itself (decision 55).
   */
  sheetNamesOtherBanks?: boolean
}

/** Field -> column position, from a mapping by position. */
export type FieldColumns = Partial<Record<BulkField, number>>

export function fieldColumns(mapping: BulkColumnMapping): FieldColumns {
  const columns: FieldColumns = {}
  mapping.forEach((field, index) => {
    if (field !== null && columns[field] === undefined) columns[field] = index
  })
  return columns
}

/** Text of a code-like cell (reference, bank code, account): digits as shown, or the number spelled out. */
function codeText(cell: SheetCell): string {
  if (!isNumberCell(cell)) return cellText(cell)
  const shown = cell.text.trim()
  return /^\d+$/.test(shown) ? shown : numberCellDecimal(cell)
}

function finding(row: number, column: BulkField | null, code: string, message: string): BulkFinding {
  return { row, column, code, message }
}

/** One data row into an item, with the findings only the cells can show, and its notes. */
export function readItem(
  row: SheetRow,
  columns: FieldColumns,
  context: ReadContext,
): { item: BulkItem; findings: BulkFinding[]; notes: BulkFinding[]; runWide: RunWideField[] } {
  const cell = (field: BulkField): SheetCell => {
    const index = columns[field]
    return index === undefined ? undefined : row.cells[index]
  }
  const findings: BulkFinding[] = []
  const notes: BulkFinding[] = []
  const runWide: RunWideField[] = []
  /** A row's own cell, else the run-wide value (decision 53). */
  const orRunWide = (field: RunWideField): string => {
    const own = cellText(cell(field))
    const wide = context.runWide?.[field]
    if (own !== '' || wide === undefined || wide === '') return own
    runWide.push(field)
    return wide
  }
  const amountCell = cell('amount')
  const amountText = isNumberCell(amountCell) ? numberCellDecimal(amountCell) : cellText(amountCell)
  const reference = codeText(cell('reference'))
  const item: BulkItem = {
    row: row.row,
    reference: reference === '' ? generatedReference(context.sha256, row.row) : reference,
    amount: normaliseAmount(amountText, context.currency) ?? amountText,
    bank_code: codeText(cell('bank_code')),
    account_number: codeText(cell('account_number')),
    customer_name: cellText(cell('customer_name')),
    customer_email: orRunWide('customer_email'),
    narration: orRunWide('narration'),
  }
  // Who the payment is for (decision 108): kept as written, zeros and all (017 is not 17).
  const payeeId = codeText(cell('payee_id'))
  if (payeeId !== '') item.payee_id = payeeId

  // A bank name: the code it matches, or an error naming the banks it may be.
  const bankCell = cell('bank_code')
  if (context.bankNames && !isNumberCell(bankCell) && item.bank_code !== '') {
    const named = bankNameOf(row.row, item.bank_code, context.bankNames, context)
    if (named.match) {
      item.bank_match = named.match
      item.bank_code = named.match.code
    }
    if (named.finding) findings.push(named.finding)
  }

  // A number cell drops leading zeros: say so, never pad (the zeros might not be the only loss).
  if (isNumberCell(bankCell) && !context.bankCodes.has(item.bank_code)) {
    const padded = [`0${item.bank_code}`, `00${item.bank_code}`].find((code) => context.bankCodes.has(code))
    if (padded)
      findings.push(
        finding(
          row.row,
          'bank_code',
          'leading_zero_lost',
          `Bank code ${item.bank_code} is stored as a number and has lost its leading zero (did you mean ${padded}?). Format the column as text and type the code again.`,
        ),
      )
  }

  // The account: from a number cell (decision 54), or written with spaces or dashes.
  const accountCell = cell('account_number')
  const written = cellText(accountCell)
  const decimal = isNumberCell(accountCell) ? null : digitsOfDecimalNumber(written)
  if (isNumberCell(accountCell) && /^\d+$/.test(item.account_number)) item.account_from_number = item.account_number
  else if (decimal !== null) item.account_number = item.account_from_number = decimal
  else {
    const cleaned = cleanedAccountNumber(written)
    if (cleaned !== null) {
      item.account_number = cleaned
      notes.push(
        finding(
          row.row,
          'account_number',
          'account_number_cleaned',
          `Account number "${written}" was read as ${cleaned}: the spaces and dashes in it were removed.`,
        ),
      )
    }
  }
  return { item, findings, notes, runWide }
}

/** The findings on one item's texts; `skip` names columns already reported by reading. */
export function itemFindings(item: BulkItem, context: ValidationContext, skip?: ReadonlySet<BulkField>): BulkFinding[] {
  const findings: BulkFinding[] = []
  const add = (column: BulkField, code: string, message: string): void => {
    if (!skip?.has(column)) findings.push(finding(item.row, column, code, message))
  }
  const { reference } = item
  const { min, max } = BULK_PAYOUT_REFERENCE_LENGTH
  if (reference.length < min || reference.length > max)
    add(
      'reference',
      'reference_length',
      `Reference "${reference.slice(0, 60)}" has ${reference.length} characters; it must have ${min} to ${max}.`,
    )

  const amount = amountProblemOf(item.amount, context.currency)
  if (amount) add('amount', amount.code, amount.message)

  const country = COUNTRY_OF_CURRENCY[context.currency]
  if (item.bank_code === '') add('bank_code', 'bank_code_missing', 'The bank code is empty.')
  else if (!context.bankCodes.has(item.bank_code) && !skip?.has('bank_code')) {
    const { code, message, candidates } = bankFinding(item, context)
    findings.push({ ...finding(item.row, 'bank_code', code, message), ...(candidates ? { candidates } : {}) })
  }

  const account = accountNumberProblem(item, country)
  if (account) add('account_number', account.code, account.message)

  if (item.customer_name === '') add('customer_name', 'customer_name_missing', 'The customer name is empty.')
  if (item.customer_email === '') add('customer_email', 'customer_email_missing', 'The customer e-mail is empty.')
  else if (emailProblem(item.customer_email))
    add('customer_email', 'customer_email_invalid', `"${item.customer_email}" is not a valid e-mail address.`)
  if (item.narration === '') add('narration', 'narration_missing', 'The narration is empty.')
  textFindings(item, add)
  return findings
}

/** Direction overrides and isolates: they can make a name read differently on screen than it is. */
const DIRECTION_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/

const TEXT_LIMITS = [
  ['customer_name', 'customer name', CUSTOMER_NAME_MAX_LENGTH],
  ['narration', 'narration', NARRATION_MAX_LENGTH],
] as const

/**
 * Free text from a sheet (name and narration) as a careless or hostile hand writes it: too long for
 * the service, a card number (never sent, never journaled), or characters that change how it reads.
 */
function textFindings(item: BulkItem, add: (column: BulkField, code: string, message: string) => void): void {
  for (const [column, label, max] of TEXT_LIMITS) {
    const text = item[column]
    if (text.length > max)
      add(
        column,
        `${column}_too_long`,
        `The ${label} has ${text.length.toLocaleString('en-US')} characters; at most ${max} are sent.`,
      )
    // A card number this desk masked where it keeps the row (decision 102) is still one: the row stays flagged.
    if (looksLikeCardNumber(text) || holdsMaskedCardNumber(text))
      add(
        column,
        'card_number',
        `The ${label} looks like a card number: card numbers are never sent in a payout or kept in this desk's journal. Remove it.`,
      )
    const control = DIRECTION_CONTROLS.exec(text)
    if (control)
      add(
        column,
        'direction_control',
        `The ${label} holds an invisible text-direction character (U+${control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}) that can make it read differently on screen than it is sent. Type it again.`,
      )
  }
}

/** What the same payment again is compared by: its reference (a sheet's own) and narration. */
interface PaymentSeen {
  row: number
  reference: string | null
  narration: string
}

/** A reference the desk made (PD-<hash>-<row>) is no reference of the sheet. */
const GENERATED = new RegExp(`^${GENERATED_REFERENCE_PREFIX}[0-9A-F]{16}-\\d+$`)
const ownReference = (item: BulkItem): string | null =>
  item.reference === '' || GENERATED.test(item.reference) ? null : item.reference
const sameText = (a: string, b: string): boolean =>
  a.trim().replace(/\s+/g, ' ').toLowerCase() === b.trim().replace(/\s+/g, ' ').toLowerCase()

/**
 * Findings across rows, one row at a time (so a long list can be checked in slices): a reference
 * used again is an error on the later row. The same bank, account and amount again is, on the
 * later row, a warning that leaves it out (a row copied twice: same narration, no reference of its
 * own or the same one), or, when its narration or its own reference differs, a question to answer
 * before it is paid (a second invoice of a vendor: decision 57). Both name the earlier row.
 */
export class AcrossRows {
  readonly errors: BulkFinding[] = []
  readonly warnings: BulkFinding[] = []
  private readonly references = new Map<string, number>()
  private readonly payments = new Map<string, PaymentSeen>()

  /** `currency`: the money of the question is said in it. */
  constructor(private readonly currency?: BulkCurrency) {}

  add(item: BulkItem): void {
    if (item.reference !== '') {
      const first = this.references.get(item.reference)
      if (first === undefined) this.references.set(item.reference, item.row)
      else
        this.errors.push(
          finding(
            item.row,
            'reference',
            'reference_duplicate',
            `Reference "${item.reference}" is also used on row ${first}.`,
          ),
        )
    }
    const amount = normaliseAmount(item.amount)
    if (amount === null || item.account_number === '') return
    const key = `${item.bank_code}\u001f${item.account_number}\u001f${amount}`
    const first = this.payments.get(key)
    const seen: PaymentSeen = { row: item.row, reference: ownReference(item), narration: item.narration }
    if (first === undefined) {
      this.payments.set(key, seen)
      return
    }
    const differences: string[] = []
    if (!sameText(first.narration, seen.narration))
      differences.push(`narration "${clip(seen.narration)}" here and "${clip(first.narration)}" there`)
    if (seen.reference !== null && first.reference !== null && seen.reference !== first.reference)
      differences.push(`reference ${seen.reference} here and ${first.reference} there`)
    if (differences.length === 0) {
      this.warnings.push(
        finding(
          item.row,
          null,
          'possible_duplicate',
          `Same bank, account and amount as row ${first.row}: is this payment meant twice?`,
        ),
      )
      return
    }
    const money = this.currency ? formatMoney(amount, this.currency) : amount
    this.errors.push(
      finding(
        item.row,
        null,
        'same_payment_again',
        `Pays ${money} to the same account (bank ${item.bank_code}, account ${item.account_number}) as row ${first.row}, which pays ${money} too, with ${differences.join(', and ')}: ${money} more in all. A second payment? Pay both, or leave this row out.`,
      ),
    )
  }
}

const clip = (text: string): string => (text.length > 60 ? `${text.slice(0, 57)}…` : text)

/** The findings across all the rows at once (see AcrossRows). */
export function sheetFindings(
  items: readonly BulkItem[],
  currency?: BulkCurrency,
): { errors: BulkFinding[]; warnings: BulkFinding[] } {
  const across = new AcrossRows(currency)
  for (const item of items) across.add(item)
  return across
}

export function byRow(a: BulkFinding, b: BulkFinding): number {
  return a.row - b.row
}
