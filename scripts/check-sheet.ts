/**
 * check-sheet: the importer headless, for scripted checks of payout files (decision 36).
 *   npm run --silent check-sheet -- <file> [--sheet <name>] [--currency NGN|KES] [--banks <file>]
 *     [--email <address>] [--narration <text>] [--json]
 * Exit 0: every row valid; 1: some row has an error (or a question to answer); 2: the file is
 * rejected as a whole (or the command line is wrong, an --email that is no e-mail address too).
 * Offline: bank codes and names are read against the bundled list of the currency's country
 * (shared/banks/bank-list.json), or the list in --banks (an array of spec 2.1 entries, or the
 * service's whole list response); the mapping is the automatic one. Without --currency, the
 * currency is the one the sheet points to (a "Currency: KES" cell, its banks, its amounts), else
 * NGN (decision 55). --email and --narration are the run-wide values of the Columns step: rows
 * without their own e-mail or narration (no such column, or an empty cell) take them (decision 53).
 *
 * It runs from built JavaScript (out/cli/check-sheet.js, `npm run build`), so it starts in well
 * under a second: nothing is compiled at start, and SheetJS is loaded only for a workbook.
 */
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { bankListFrom } from '../shared/banks/bank-list'
import { COUNTRY_OF_CURRENCY } from '../shared/bulk/banks'
import { isFileError } from '../shared/bulk/import-rows'
import { runWideValueProblem } from '../shared/bulk/run-wide'
import { isRowQuestion } from '../shared/domain/bulk-run'
import {
  BULK_CURRENCIES,
  type BulkCurrency,
  type BulkImportResult,
  type CurrencyGuess,
  type RunWideValues,
} from '../shared/domain/bulk'
import { formatMoney } from '../shared/money'
import { importFile } from '../electron/main/services/bulk/import/import-file'

const USAGE =
  'Usage: npm run --silent check-sheet -- <file> [--sheet <name>] [--currency NGN|KES] [--banks <file>] [--email <address>] [--narration <text>] [--json]'

interface Arguments {
  file: string
  sheet?: string
  /** Given on the command line; else the sheet's own, else NGN. */
  currency?: BulkCurrency
  /** The --banks file's JSON, read against the currency's country once that is known. */
  banks?: { path: string; json: unknown }
  runWide: RunWideValues
  json: boolean
}

/** The currency the sheet was read in, and where it came from. */
interface CurrencyUsed {
  value: BulkCurrency
  from: 'option' | 'sheet' | 'default'
  because?: string[]
  against?: string[]
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
        currency: { type: 'string' },
        banks: { type: 'string' },
        email: { type: 'string' },
        narration: { type: 'string' },
        json: { type: 'boolean', default: false },
      },
    })
  } catch (error) {
    // parseArgs names the option: "Unknown option '--x'", "Option '--sheet <value>' argument missing".
    const message = (error as Error).message
    return message.endsWith('.') ? message : `${message}.`
  }
  const { values, positionals } = parsed
  const currency = values.currency?.toUpperCase()
  if (currency !== undefined && !(BULK_CURRENCIES as readonly string[]).includes(currency))
    return '--currency must be NGN or KES.'
  if (positionals.length === 0) return 'Name the file to check.'
  if (positionals.length > 1) return `Only one file at a time (got ${positionals.join(' and ')}).`
  const runWide: RunWideValues = {}
  for (const [option, field] of [
    ['email', 'customer_email'],
    ['narration', 'narration'],
  ] as const) {
    const value = values[option]
    if (value === undefined) continue
    if (value.trim() === '')
      return `--${option} is empty: give the ${option === 'email' ? 'e-mail address' : 'narration'} for every row without one, or leave the option out.`
    const problem = runWideValueProblem(field, value)
    if (problem) return `--${option}: ${problem}`
    runWide[field] = value.trim()
  }
  let banks: Arguments['banks']
  if (values.banks !== undefined) {
    try {
      banks = { path: values.banks, json: JSON.parse(readFileSync(values.banks, 'utf8')) as unknown }
    } catch (error) {
      return `--banks ${values.banks}: ${(error as Error).message}.`
    }
  }
  return {
    file: positionals[0] as string,
    ...(values.sheet !== undefined ? { sheet: values.sheet } : {}),
    ...(currency !== undefined ? { currency: currency as BulkCurrency } : {}),
    ...(banks ? { banks } : {}),
    runWide,
    json: values.json,
  }
}

/** The currency to read in: the command line's, else the one the sheet points to, else NGN. */
function currencyOf(given: BulkCurrency | undefined, guess: CurrencyGuess | null): CurrencyUsed {
  if (given) return { value: given, from: 'option' }
  if (guess) return { value: guess.currency, from: 'sheet', because: guess.because, against: guess.against }
  return { value: 'NGN', from: 'default' }
}

function currencyLine(used: CurrencyUsed): string {
  if (used.from === 'option') return `Currency:   ${used.value} (--currency)`
  if (used.from === 'default')
    return `Currency:   ${used.value} (the sheet does not say; --currency KES for Kenyan banks)`
  const against = used.against?.length ? `; but ${used.against.join(', ')}` : ''
  return `Currency:   ${used.value} (from the sheet: ${used.because?.join(', ')}${against})`
}

function report(result: BulkImportResult, used: CurrencyUsed): string {
  const currency = used.value
  const lines = [
    `File:       ${result.file}`,
    `Sheet:      ${result.sheet}`,
    currencyLine(used),
    `Header row: ${result.header.row}`,
    'Columns:',
    ...Object.entries(result.header.columns).map(([header, field]) => `  ${JSON.stringify(header)} -> ${field}`),
    ...Object.entries(result.run_wide ?? {}).map(
      ([field, given]) =>
        `  (whole run) -> ${field}: ${JSON.stringify(given.value)}, ${given.rows} ${given.rows === 1 ? 'row' : 'rows'}`,
    ),
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
  const questions = result.errors.filter((finding) => isRowQuestion(finding.code)).length
  lines.push(
    result.errors.length === 0
      ? 'Every row is valid.'
      : questions === result.errors.length
        ? `No row has an error, but ${questions} ${questions === 1 ? "needs a person's answer before it is" : "need a person's answer before they are"} paid (in the desk's review).`
        : 'Some rows have errors.',
  )
  return lines.join('\n')
}

async function main(): Promise<number> {
  const parsed = parseArguments(process.argv.slice(2))
  if (typeof parsed === 'string') {
    process.stderr.write(`${parsed}\n${USAGE}\n`)
    return 2
  }
  let used: CurrencyUsed = currencyOf(parsed.currency, null)
  let banksProblem: string | null = null
  const result = await importFile(
    { path: parsed.file },
    {
      ...(parsed.sheet !== undefined ? { sheet: parsed.sheet } : {}),
      currency: used.value,
      ...(Object.keys(parsed.runWide).length > 0 ? { runWide: parsed.runWide } : {}),
    },
    undefined,
    undefined,
    undefined,
    (guess) => {
      used = currencyOf(parsed.currency, guess)
      if (!parsed.banks) return { currency: used.value }
      try {
        return { currency: used.value, banks: bankListFrom(parsed.banks.json, COUNTRY_OF_CURRENCY[used.value]) }
      } catch (error) {
        banksProblem = `--banks ${parsed.banks.path}: ${(error as Error).message}.`
        return { currency: used.value }
      }
    },
  )
  if (banksProblem !== null) {
    process.stderr.write(`${banksProblem}\n${USAGE}\n`)
    return 2
  }
  if (isFileError(result)) {
    // A sheet with no e-mail or narration column: the options that give one for the whole run.
    const message = result.fileError.message
    const options = [
      ...(/one customer e-mail/.test(message) ? ['--email <address>'] : []),
      ...(/one narration/.test(message) ? ['--narration <text>'] : []),
    ]
    const hint =
      result.fileError.code === 'missing_columns' && options.length > 0
        ? `\nGive ${options.length === 1 ? 'it' : 'them'} for the whole run with ${options.join(' and ')}.`
        : ''
    process.stdout.write(
      parsed.json
        ? `${JSON.stringify(result)}\n`
        : `${result.file}: rejected: ${result.fileError.message} [${result.fileError.code}]${hint}\n`,
    )
    return 2
  }
  process.stdout.write(parsed.json ? `${JSON.stringify({ ...result, currency: used })}\n` : `${report(result, used)}\n`)
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
