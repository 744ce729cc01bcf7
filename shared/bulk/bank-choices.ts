/**
 * The Banks step of an import (issue 17 §1), pure: the distinct bank texts of an import with their
 * matches and row counts, and the import as it is once the user has confirmed or chosen a bank for
 * each. A text left without a choice stays an error on its cells that names the banks it may be,
 * so nothing is matched behind the user's back.
 */
import type {
  BankChoiceByKey,
  BankMatchRecord,
  BankNameProposal,
  BulkFinding,
  BulkImportResult,
  ImportRecord,
} from '../domain/bulk'
import { bankTextKey } from '../banks/match-bank'
import { byRow, sheetFindings } from './validate'

const NAME_CODES = new Set([
  'bank_name_ambiguous',
  'bank_name_suggestion',
  'bank_name_unknown',
  'bank_name_unconfirmed',
])

function isNameFinding(finding: BulkFinding): boolean {
  return finding.column === 'bank_code' && NAME_CODES.has(finding.code)
}

/** The distinct bank texts that are names (not codes), in the order they first appear. */
export function bankNameProposals(result: BulkImportResult): BankNameProposal[] {
  const nameErrors = new Map<number, BulkFinding>()
  for (const finding of result.errors) if (isNameFinding(finding)) nameErrors.set(finding.row, finding)
  const proposals = new Map<string, BankNameProposal>()
  for (const item of result.items) {
    const error = nameErrors.get(item.row)
    const text = item.bank_match?.from ?? (error ? item.bank_code : null)
    if (text === null) continue
    const key = bankTextKey(text)
    const known = proposals.get(key)
    if (known) {
      known.rows++
      continue
    }
    const match = item.bank_match
    proposals.set(
      key,
      match && match.how !== 'chosen'
        ? { text, key, rows: 1, how: match.how, bank: { code: match.code, name: match.name }, candidates: [] }
        : {
            text,
            key,
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
 * `banks` is the list the choices were made from: a code not in it is refused.
 */
export function applyBankChoices(
  result: BulkImportResult,
  choices: readonly BankChoiceByKey[],
  banks: ReadonlyArray<{ code: string; name: string }>,
): BulkImportResult {
  const byCode = new Map(banks.map((bank) => [bank.code, bank]))
  const chosen = new Map<string, { code: string; name: string }>()
  for (const choice of choices) {
    const bank = byCode.get(choice.code)
    if (!bank) throw new Error(`Bank code ${choice.code} is not in the bank list.`)
    chosen.set(choice.key, bank)
  }
  const nameErrors = new Map<number, BulkFinding>()
  for (const finding of result.errors) if (isNameFinding(finding)) nameErrors.set(finding.row, finding)

  const errors = result.errors.filter((finding) => !isNameFinding(finding))
  const items = result.items.map((item) => {
    const error = nameErrors.get(item.row)
    const text = item.bank_match?.from ?? (error ? item.bank_code : null)
    if (text === null) return item
    const bank = chosen.get(bankTextKey(text))
    const { bank_match: match, ...rest } = item
    if (bank) {
      const how: BankMatchRecord['how'] = match && match.code === bank.code ? match.how : 'chosen'
      return { ...rest, bank_code: bank.code, bank_match: { from: text, code: bank.code, name: bank.name, how } }
    }
    if (match) {
      errors.push({
        row: item.row,
        column: 'bank_code',
        code: 'bank_name_unconfirmed',
        message: `"${text}" was matched to ${match.name} (${match.code}) but not confirmed: type the bank's code.`,
        candidates: [{ code: match.code, name: match.name }],
      })
      return { ...rest, bank_code: text }
    }
    errors.push(error!)
    return item
  })
  const errorRows = new Set(errors.map((finding) => finding.row))
  return {
    ...result,
    items,
    valid: items.filter((item) => !errorRows.has(item.row)).length,
    errors: errors.sort(byRow),
    // A name that became a code may now be the same payment as a row written with the code.
    warnings: sheetFindings(items).warnings.sort(byRow),
  }
}

/** What a run keeps of its import: rows left out, the control total, and each bank name with its bank. */
export function importRecordOf(result: BulkImportResult): ImportRecord | undefined {
  if (result.skipped === undefined) return undefined
  const names = new Map<string, ImportRecord['bank_names'][number]>()
  for (const item of result.items) {
    const match = item.bank_match
    if (!match) continue
    const key = `${bankTextKey(match.from)}\u001f${match.code}`
    const known = names.get(key)
    if (known) known.rows++
    else names.set(key, { ...match, rows: 1 })
  }
  return {
    skipped: result.skipped,
    ...(result.control_total ? { control_total: result.control_total } : {}),
    bank_names: [...names.values()],
  }
}
