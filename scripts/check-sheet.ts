/**
 * check-sheet: the importer headless, for scripted checks of payout files (decision 36).
 *   npm run --silent check-sheet -- <file> [--sheet <name>] [--currency NGN|KES] [--banks <file>] [--json]
 * Exit 0: every row valid; 1: some row has an error; 2: the file is rejected as a whole (or the
 * command line is wrong). Offline: bank codes and names are read against the bundled list of the
 * currency's country (shared/banks/bank-list.json), or the list in --banks (an array of spec 2.1
 * entries, or the service's whole list response); the mapping is the automatic one.
 *
 * It runs from built JavaScript (out/cli/check-sheet.js, `npm run build`), so it starts in well
 * under a second: nothing is compiled at start, and SheetJS is loaded only for a workbook.
 */
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { bankListFrom } from '../shared/banks/bank-list'
import { COUNTRY_OF_CURRENCY } from '../shared/bulk/banks'
import { isFileError } from '../shared/bulk/import-rows'
import { BULK_CURRENCIES, type BulkCurrency, type BulkImportResult } from '../shared/domain/bulk'
import type { Bank } from '../shared/domain/lookups'
import { formatMoney } from '../shared/money'
import { importFile } from '../electron/main/services/bulk/import/import-file'

const USAGE =
  'Usage: npm run --silent check-sheet -- <file> [--sheet <name>] [--currency NGN|KES] [--banks <file>] [--json]'

interface Arguments {
  file: string
  sheet?: string
  currency: BulkCurrency
  banks?: Bank[]
  json: boolean
}

/** The command line, or what is wrong with it. */
function parseArguments(argv: string[]): Arguments | string {
  let parsed
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        sheet: { type: 'string' },
        currency: { type: 'string', default: 'NGN' },
        banks: { type: 'string' },
        json: { type: 'boolean', default: false },
      },
    })
  } catch (error) {
    // parseArgs names the option: "Unknown option '--x'", "Option '--sheet <value>' argument missing".
    const message = (error as Error).message
    return message.endsWith('.') ? message : `${message}.`
  }
  const { values, positionals } = parsed
  const currency = values.currency.toUpperCase()
  if (!(BULK_CURRENCIES as readonly string[]).includes(currency)) return '--currency must be NGN or KES.'
  if (positionals.length === 0) return 'Name the file to check.'
  if (positionals.length > 1) return `Only one file at a time (got ${positionals.join(' and ')}).`
  let banks: Bank[] | undefined
  if (values.banks !== undefined) {
    const country = COUNTRY_OF_CURRENCY[currency as BulkCurrency]
    try {
      banks = bankListFrom(JSON.parse(readFileSync(values.banks, 'utf8')), country)
    } catch (error) {
      return `--banks ${values.banks}: ${(error as Error).message}.`
    }
  }
  return {
    file: positionals[0] as string,
    ...(values.sheet !== undefined ? { sheet: values.sheet } : {}),
    currency: currency as BulkCurrency,
    ...(banks ? { banks } : {}),
    json: values.json,
  }
}

function report(result: BulkImportResult, currency: BulkCurrency): string {
  const lines = [
    `File:       ${result.file}`,
    `Sheet:      ${result.sheet}`,
    `Header row: ${result.header.row}`,
    'Columns:',
    ...Object.entries(result.header.columns).map(([header, field]) => `  ${JSON.stringify(header)} -> ${field}`),
    `Rows: ${result.rows}   valid: ${result.valid}   with errors: ${result.rows - result.valid}   warnings: ${result.warnings.length}`,
  ]
  const banks = new Map<string, { name: string; code: string; how: string; rows: number }>()
  for (const item of result.items) {
    const match = item.bank_match
    if (!match) continue
    const known = banks.get(match.from)
    if (known) known.rows++
    else banks.set(match.from, { name: match.name, code: match.code, how: match.how, rows: 1 })
  }
  if (banks.size > 0) {
    lines.push('Bank names:')
    for (const [from, bank] of banks)
      lines.push(
        `  ${JSON.stringify(from)} -> ${bank.name} (${bank.code}), ${bank.how}, ${bank.rows} ${bank.rows === 1 ? 'row' : 'rows'}`,
      )
  }
  for (const skipped of result.skipped ?? [])
    lines.push(
      `Skipped row ${skipped.row}: ${skipped.why === 'totals' ? "the sheet's total" : 'a note below the data'}`,
    )
  const control = result.control_total
  if (control)
    lines.push(
      control.match
        ? `Control total: the sheet's total ${formatMoney(control.sheet, currency)} matches the ${result.rows} payout rows.`
        : `Control total: the sheet's total ${formatMoney(control.sheet, currency)} differs from the ${result.rows} payout rows, which add up to ${formatMoney(control.computed, currency)}.`,
    )
  const list = (title: string, findings: BulkImportResult['errors']): void => {
    if (findings.length === 0) return
    lines.push(`${title}:`)
    for (const finding of findings)
      lines.push(
        `  row ${finding.row}${finding.column ? `, ${finding.column}` : ''}: ${finding.message} [${finding.code}]`,
      )
  }
  list('Errors', result.errors)
  list('Warnings', result.warnings)
  lines.push(result.errors.length === 0 ? 'Every row is valid.' : 'Some rows have errors.')
  return lines.join('\n')
}

async function main(): Promise<number> {
  const parsed = parseArguments(process.argv.slice(2))
  if (typeof parsed === 'string') {
    process.stderr.write(`${parsed}\n${USAGE}\n`)
    return 2
  }
  const result = await importFile(
    { path: parsed.file },
    { sheet: parsed.sheet, currency: parsed.currency, ...(parsed.banks ? { banks: parsed.banks } : {}) },
  )
  if (isFileError(result)) {
    process.stdout.write(
      parsed.json
        ? `${JSON.stringify(result)}\n`
        : `${result.file}: rejected: ${result.fileError.message} [${result.fileError.code}]\n`,
    )
    return 2
  }
  process.stdout.write(parsed.json ? `${JSON.stringify(result)}\n` : `${report(result, parsed.currency)}\n`)
  return result.errors.length === 0 ? 0 : 1
}

main().then(
  (code) => {
    process.exitCode = code
  },
  (error: unknown) => {
    process.stderr.write(`check-sheet failed: ${error instanceof Error ? error.message : String(error)}\n`)
    process.exitCode = 2
  },
)
