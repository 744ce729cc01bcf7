/**
 * check-sheet: the importer headless, for scripted checks of payout files (issue 7 §9).
 *   npm run --silent check-sheet -- <file> [--sheet <name>] [--currency NGN|KES] [--json]
 * Exit 0: every row valid; 1: some row has an error; 2: the file is rejected as a whole.
 * Offline: bank codes are the bundled list (shared/bulk/banks.ts), mapping the automatic one.
 */
import { BULK_CURRENCIES, type BulkCurrency, type BulkFileError, type BulkImportResult } from '../shared/domain/bulk'
import { isFileError } from '../shared/bulk/import-rows'
import { importFile } from '../electron/main/services/bulk/import/import-file'

const USAGE = 'Usage: npm run --silent check-sheet -- <file> [--sheet <name>] [--currency NGN|KES] [--json]'

interface Arguments {
  file: string
  sheet?: string
  currency: BulkCurrency
  json: boolean
}

function parseArguments(argv: readonly string[]): Arguments | string {
  let file: string | undefined
  let sheet: string | undefined
  let currency: BulkCurrency = 'NGN'
  let json = false
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index] as string
    if (argument === '--json') json = true
    else if (argument === '--sheet') {
      sheet = argv[++index]
      if (sheet === undefined) return '--sheet needs a sheet name.'
    } else if (argument === '--currency') {
      const value = argv[++index]?.toUpperCase()
      if (!(BULK_CURRENCIES as readonly string[]).includes(value ?? '')) return '--currency must be NGN or KES.'
      currency = value as BulkCurrency
    } else if (argument.startsWith('--')) return `Unknown option ${argument}.`
    else if (file === undefined) file = argument
    else return `Only one file at a time (got ${file} and ${argument}).`
  }
  if (file === undefined) return 'Name the file to check.'
  return { file, sheet, currency, json }
}

function report(result: BulkImportResult): string {
  const lines = [
    `File:       ${result.file}`,
    `Sheet:      ${result.sheet}`,
    `Header row: ${result.header.row}`,
    'Columns:',
    ...Object.entries(result.header.columns).map(([header, field]) => `  ${JSON.stringify(header)} -> ${field}`),
    `Rows: ${result.rows}   valid: ${result.valid}   with errors: ${result.rows - result.valid}   warnings: ${result.warnings.length}`,
  ]
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
  const result: BulkImportResult | BulkFileError = await importFile(
    { path: parsed.file },
    { sheet: parsed.sheet, currency: parsed.currency },
  )
  if (isFileError(result)) {
    process.stdout.write(
      parsed.json
        ? `${JSON.stringify(result)}\n`
        : `${result.file}: rejected: ${result.fileError.message} [${result.fileError.code}]\n`,
    )
    return 2
  }
  process.stdout.write(parsed.json ? `${JSON.stringify(result)}\n` : `${report(result)}\n`)
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
