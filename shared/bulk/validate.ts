/**
 * Row by row validation (decision 19). Reading a row gives a BulkItem of trimmed texts plus the
 * findings only the cells can show (a number cell that lost its leading zero); `itemFindings`
 * checks an item's texts, so the grid can re-validate an edited row with the same rules; and
 * `sheetFindings` looks across rows (duplicate references, same account and amount twice).
 */
import type { BankMatchRecord, BulkColumnMapping, BulkCurrency, BulkField, BulkFinding, BulkItem } from '../domain/bulk'
import type { BankChoice } from '../banks/bank-list'
import type { BankMatcher } from '../banks/match-bank'
import { emailProblem } from '../rules/common'
import { CUSTOMER_NAME_MAX_LENGTH, NARRATION_MAX_LENGTH } from '../rules/payouts'
import { looksLikeCardNumber } from '../rules/sensitive-data'
import { amountProblemOf, normaliseAmount, numberCellDecimal } from './amount'
import { ACCOUNT_FORMATS, COUNTRY_OF_CURRENCY } from './banks'
import { cellText, isNumberCell, type SheetCell, type SheetRow } from './cells'
import { generatedReference, REFERENCE_MAX_LENGTH, REFERENCE_MIN_LENGTH } from './references'

export interface ValidationContext {
  currency: BulkCurrency
  /** Valid bank codes of the currency's country. */
  bankCodes: ReadonlySet<string>
}

export interface ReadContext extends ValidationContext {
  /** SHA-256 (hex) of the file, for references of rows without one. */
  sha256: string
  /** Bank names in the bank column are matched with this (decision 33); without it only codes are read. */
  bankNames?: BankMatcher
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

/** One data row into an item, with the findings only the cells can show. */
export function readItem(
  row: SheetRow,
  columns: FieldColumns,
  context: ReadContext,
): { item: BulkItem; findings: BulkFinding[] } {
  const cell = (field: BulkField): SheetCell => {
    const index = columns[field]
    return index === undefined ? undefined : row.cells[index]
  }
  const findings: BulkFinding[] = []
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
    customer_email: cellText(cell('customer_email')),
    narration: cellText(cell('narration')),
  }

  // A bank name: the code it matches, or an error naming the banks it may be.
  const bankCell = cell('bank_code')
  if (context.bankNames && !isNumberCell(bankCell) && item.bank_code !== '') {
    const named = bankNameOf(row.row, item.bank_code, context)
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
  const accountCell = cell('account_number')
  const format = ACCOUNT_FORMATS[COUNTRY_OF_CURRENCY[context.currency]]
  if (isNumberCell(accountCell) && /^\d+$/.test(item.account_number) && item.account_number.length < format.minDigits)
    findings.push(
      finding(
        row.row,
        'account_number',
        'leading_zero_lost',
        `Account number ${item.account_number} is stored as a number and has lost its leading zeros (${item.account_number.length} digits; expected ${format.description}). Format the column as text and type the number again.`,
      ),
    )
  return { item, findings }
}

const listed = (banks: readonly BankChoice[]): string => {
  const names = banks.map((bank) => `${bank.name} (${bank.code})`)
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`
}

/** A bank cell's text read as a name: the match, or the finding that names the candidates. */
function bankNameOf(
  row: number,
  text: string,
  context: ReadContext,
): { match?: BankMatchRecord; finding?: BulkFinding } {
  const found = context.bankNames!.match(text)
  const country = COUNTRY_OF_CURRENCY[context.currency]
  const quoted = `"${text}"`
  switch (found.kind) {
    case 'exact':
    case 'alias':
    case 'remembered':
      return { match: { from: text, code: found.bank.code, name: found.bank.name, how: found.kind } }
    case 'ambiguous':
      return {
        finding: {
          ...finding(
            row,
            'bank_code',
            'bank_name_ambiguous',
            `${quoted} could be ${listed(found.candidates)}: choose the bank, or type its code.`,
          ),
          candidates: found.candidates,
        },
      }
    case 'suggestion':
      return {
        finding: {
          ...finding(
            row,
            'bank_code',
            'bank_name_suggestion',
            `${quoted} is not a ${country} bank name of the service; did you mean ${listed(found.candidates)}? Choose the bank, or type its code.`,
          ),
          candidates: found.candidates,
        },
      }
    case 'unknown':
      return {
        finding: {
          ...finding(
            row,
            'bank_code',
            'bank_name_unknown',
            `${quoted} is neither a ${country} bank code nor a bank name of the service: type the bank's code, or its name as the bank list has it.`,
          ),
          candidates: [],
        },
      }
    default:
      // A code (or digits that the code rules judge).
      return {}
  }
}

/** The findings on one item's texts; `skip` names columns already reported by reading. */
export function itemFindings(item: BulkItem, context: ValidationContext, skip?: ReadonlySet<BulkField>): BulkFinding[] {
  const findings: BulkFinding[] = []
  const add = (column: BulkField, code: string, message: string): void => {
    if (!skip?.has(column)) findings.push(finding(item.row, column, code, message))
  }
  const { reference } = item
  if (reference.length < REFERENCE_MIN_LENGTH || reference.length > REFERENCE_MAX_LENGTH)
    add(
      'reference',
      'reference_length',
      `Reference "${reference.slice(0, 60)}" has ${reference.length} characters; it must have ${REFERENCE_MIN_LENGTH} to ${REFERENCE_MAX_LENGTH}.`,
    )

  const amount = amountProblemOf(item.amount, context.currency)
  if (amount) add('amount', amount.code, amount.message)

  const country = COUNTRY_OF_CURRENCY[context.currency]
  if (item.bank_code === '') add('bank_code', 'bank_code_missing', 'The bank code is empty.')
  else if (!context.bankCodes.has(item.bank_code))
    add('bank_code', 'bank_code_unknown', `Bank code "${item.bank_code}" is not a ${country} bank code of the service.`)

  const format = ACCOUNT_FORMATS[country]
  if (item.account_number === '') add('account_number', 'account_number_missing', 'The account number is empty.')
  else if (!format.pattern.test(item.account_number))
    add(
      'account_number',
      'account_number_format',
      `Account number "${item.account_number}" is not a ${country} account number: ${format.description}.`,
    )

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
    if (looksLikeCardNumber(text))
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

/**
 * Findings across rows, one row at a time (so a long list can be checked in slices): a reference
 * used again is an error on the later row; the same bank, account and amount again is a warning on
 * the later row. Both name the earlier row.
 */
export class AcrossRows {
  readonly errors: BulkFinding[] = []
  readonly warnings: BulkFinding[] = []
  private readonly references = new Map<string, number>()
  private readonly payments = new Map<string, number>()

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
    if (amount !== null && item.account_number !== '') {
      const key = `${item.bank_code}\u001f${item.account_number}\u001f${amount}`
      const first = this.payments.get(key)
      if (first === undefined) this.payments.set(key, item.row)
      else
        this.warnings.push(
          finding(
            item.row,
            null,
            'possible_duplicate',
            `Same bank, account and amount as row ${first}: is this payment meant twice?`,
          ),
        )
    }
  }
}

/** The findings across all the rows at once (see AcrossRows). */
export function sheetFindings(items: readonly BulkItem[]): { errors: BulkFinding[]; warnings: BulkFinding[] } {
  const across = new AcrossRows()
  for (const item of items) across.add(item)
  return across
}

export function byRow(a: BulkFinding, b: BulkFinding): number {
  return a.row - b.row
}
