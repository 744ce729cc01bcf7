/**
 * The Banks step of an import (decision 33), pure: the distinct bank texts of an import with their
 * matches and row counts, and the import as it is once the user has confirmed or chosen a bank for
 * each. A text left without a choice stays an error on its cells that names the banks it may be,
 * so nothing is matched behind the user's back.
 *
 * An import has up to 100,000 rows and main runs these: the long ones go in slices, calling
 * `pause` between them so other work gets a turn (main passes a setImmediate).
 */
import type {
  BankChoiceByKey,
  BankMatchRecord,
  BankNameProposal,
  BulkCurrency,
  BulkFinding,
  BulkImportResult,
  BulkItem,
  ImportRecord,
} from '../domain/bulk'
import { bankTextKey } from '../banks/match-bank'
import { AcrossRows, byRow } from './validate'

/** Items handled between two pauses. */
const SLICE = 5_000

export type Pause = () => Promise<void>
const noPause: Pause = () => Promise.resolve()

const NAME_CODES = new Set([
  'bank_name_ambiguous',
  'bank_name_suggestion',
  'bank_name_unknown',
  'bank_name_unconfirmed',
])
/** Findings across rows: made again once the names are codes. */
const ACROSS_ERRORS = new Set(['reference_duplicate', 'same_payment_again'])
const ACROSS_WARNINGS = new Set(['possible_duplicate'])

function isNameFinding(finding: BulkFinding): boolean {
  return finding.column === 'bank_code' && NAME_CODES.has(finding.code)
}

/** bankTextKey, remembered per text: a sheet repeats a few texts over many rows. */
function keyOf(): (text: string) => string {
  const keys = new Map<string, string>()
  return (text) => {
    let key = keys.get(text)
    if (key === undefined) keys.set(text, (key = bankTextKey(text)))
    return key
  }
}

/** The rows whose bank cell held a name: by row, the finding that names its candidates. */
function nameErrorsOf(result: BulkImportResult): Map<number, BulkFinding> {
  const errors = new Map<number, BulkFinding>()
  for (const finding of result.errors) if (isNameFinding(finding)) errors.set(finding.row, finding)
  return errors
}

/** The bank text of an item whose cell held a name; null when it held a code. */
function nameOf(item: BulkItem, nameErrors: ReadonlyMap<number, BulkFinding>): string | null {
  return item.bank_match?.from ?? (nameErrors.has(item.row) ? item.bank_code : null)
}

/** The distinct bank texts that are names (not codes), in the order they first appear. */
export async function bankNameProposals(result: BulkImportResult, pause: Pause = noPause): Promise<BankNameProposal[]> {
  const nameErrors = nameErrorsOf(result)
  const key = keyOf()
  const proposals = new Map<string, BankNameProposal>()
  const { items } = result
  for (let index = 0; index < items.length; index++) {
    if (index > 0 && index % SLICE === 0) await pause()
    const item = items[index]!
    const text = nameOf(item, nameErrors)
    if (text === null) continue
    const known = proposals.get(key(text))
    if (known) {
      known.rows++
      continue
    }
    const match = item.bank_match
    const error = nameErrors.get(item.row)
    proposals.set(
      key(text),
      match && match.how !== 'chosen'
        ? {
            text,
            key: key(text),
            rows: 1,
            how: match.how,
            bank: { code: match.code, name: match.name },
            candidates: [],
          }
        : {
            text,
            key: key(text),
            rows: 1,
            how:
              error?.code === 'bank_name_ambiguous'
                ? 'ambiguous'
                : error?.code === 'bank_name_unknown'
                  ? 'unknown'
                  : 'suggestion',
            candidates: error?.candidates ?? [],
          },
    )
  }
  return [...proposals.values()]
}

/**
 * The import once the user has decided: each bank text with a choice gets that bank's code (and a
 * record of where it came from); a text that was matched but not confirmed becomes an error again.
 * `banks` is the list the choices were made from: a code not in it is refused. The checks across
 * rows are made again (a name that became a code may now be the same payment as a row with the code).
 */
export async function applyBankChoices(
  result: BulkImportResult,
  choices: readonly BankChoiceByKey[],
  banks: ReadonlyArray<{ code: string; name: string }>,
  pause: Pause = noPause,
  currency?: BulkCurrency,
): Promise<BulkImportResult> {
  const byCode = new Map(banks.map((bank) => [bank.code, bank]))
  const chosen = new Map<string, { code: string; name: string }>()
  for (const choice of choices) {
    const bank = byCode.get(choice.code)
    if (!bank) throw new Error(`Bank code ${choice.code} is not in the bank list.`)
    chosen.set(choice.key, bank)
  }
  const nameErrors = nameErrorsOf(result)
  const key = keyOf()
  const errors = result.errors.filter((finding) => !isNameFinding(finding) && !ACROSS_ERRORS.has(finding.code))
  const across = new AcrossRows(currency)
  const items: BulkItem[] = new Array(result.items.length)
  for (let index = 0; index < result.items.length; index++) {
    if (index > 0 && index % SLICE === 0) await pause()
    const item = decide(result.items[index]!)
    items[index] = item
    across.add(item)
  }

  function decide(item: BulkItem): BulkItem {
    const text = nameOf(item, nameErrors)
    if (text === null) return item
    const bank = chosen.get(key(text))
    const match = item.bank_match
    if (bank) {
      const how: BankMatchRecord['how'] = match && match.code === bank.code ? match.how : 'chosen'
      return { ...item, bank_code: bank.code, bank_match: { from: text, code: bank.code, name: bank.name, how } }
    }
    if (match) {
      errors.push({
        row: item.row,
        column: 'bank_code',
        code: 'bank_name_unconfirmed',
        message: `"${text}" was matched to ${match.name} (${match.code}) but not confirmed: type the bank's code.`,
        candidates: [{ code: match.code, name: match.name }],
      })
      const unmatched = { ...item, bank_code: text }
      delete unmatched.bank_match
      return unmatched
    }
    errors.push(nameErrors.get(item.row)!)
    return item
  }

  errors.push(...across.errors)
  const errorRows = new Set(errors.map((finding) => finding.row))
  return {
    ...result,
    items,
    valid: items.filter((item) => !errorRows.has(item.row)).length,
    errors: errors.sort(byRow),
    // The import's notes stay (an account cleaned of its spaces); the duplicates are found again.
    warnings: result.warnings
      .filter((finding) => !ACROSS_WARNINGS.has(finding.code))
      .concat(across.warnings)
      .sort(byRow),
  }
}

/** What a run keeps of its import: rows left out, the control total, and each bank name with its bank. */
export function importRecordOf(result: BulkImportResult): ImportRecord | undefined {
  if (result.skipped === undefined) return undefined
  const key = keyOf()
  const names = new Map<string, ImportRecord['bank_names'][number]>()
  for (const item of result.items) {
    const match = item.bank_match
    if (!match) continue
    const id = `${key(match.from)}\u001f${match.code}`
    const known = names.get(id)
    if (known) known.rows++
    else names.set(id, { ...match, rows: 1 })
  }
  return {
    skipped: result.skipped,
    ...(result.control_total ? { control_total: result.control_total } : {}),
    bank_names: [...names.values()],
    ...(result.run_wide ? { run_wide: result.run_wide } : {}),
  }
}
