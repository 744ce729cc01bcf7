/**
 * The report of a run (its rows with their outcome, as a table to export) and the evidence pack:
 * one ZIP with the original file and its SHA-256, the confirmed mapping, the normalised rows, the
 * journal records of the run, the report and a manifest of SHA-256 sums, so an auditor can check
 * that nothing was changed afterwards. Neither carries a key or a card number: runs hold none.
 */
import { strToU8, zipSync } from 'fflate'
import * as XLSX from 'xlsx'
import type { ExportTable } from '../../../../../shared/domain/export'
import type { RunRow } from '../../../../../shared/domain/bulk-run'
import type { MovementView } from '../../../../../shared/domain/journal'
import { formatMinorUnits, toMinorUnits } from '../../../../../shared/money'
import type { RunState } from './run-store'
import { sha256Hex } from './run-store'

const ORIGINAL_COLUMNS = [
  ['row', 'Row', 'integer'],
  ['reference', 'Reference', 'text'],
  ['amount', 'Amount', 'amount'],
  ['bank_code', 'Bank code', 'text'],
  ['account_number', 'Account number', 'text'],
  ['customer_name', 'Customer name', 'text'],
  ['customer_email', 'Customer email', 'text'],
  ['narration', 'Narration', 'text'],
] as const

export function reportTable(state: RunState, rows: readonly RunRow[]): ExportTable {
  return {
    title: `Bulk run ${state.id}`,
    columns: [
      ...ORIGINAL_COLUMNS.map(([key, header, kind]) => ({ key, header, kind })),
      { key: 'currency', header: 'Currency', kind: 'text' },
      { key: 'status', header: 'Status', kind: 'text' },
      { key: 'payout_reference', header: 'Payout reference', kind: 'text' },
      { key: 'batch_reference', header: 'Batch reference', kind: 'text' },
      { key: 'fee', header: 'Fee', kind: 'amount' },
      { key: 'trace_id', header: 'Trace id', kind: 'text' },
      { key: 'message', header: 'Message', kind: 'text' },
    ],
    rows: rows.map((row) => ({
      row: row.item.row,
      reference: row.item.reference,
      amount: row.item.amount,
      bank_code: row.item.bank_code,
      account_number: row.item.account_number,
      customer_name: row.item.customer_name,
      customer_email: row.item.customer_email,
      narration: row.item.narration,
      currency: state.currency,
      status: row.excluded ? 'excluded' : row.status === 'not_sent' && row.errors.length > 0 ? 'error' : row.status,
      payout_reference: row.batchReference ? row.item.reference : null,
      batch_reference: row.batchReference ?? null,
      fee: row.fee ?? null,
      trace_id: row.traceId ?? null,
      message:
        row.message ??
        (row.errors.length > 0 ? row.errors.map((e) => e.message).join('; ') : (row.resolutionMessage ?? null)),
    })),
    summary: { groupBy: ['status', 'currency'], amount: 'amount' },
  }
}

/** A cell that a spreadsheet would run as a formula is prefixed with ' (OWASP CSV injection). */
export function neutralise(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text
}

export function tableToCsv(table: ExportTable): string {
  const quote = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value)
  const lines = [table.columns.map((c) => quote(c.header)).join(',')]
  for (const row of table.rows) {
    lines.push(
      table.columns
        .map((c) => {
          const value = row[c.key]
          if (value === null || value === undefined) return ''
          const text = String(value)
          return quote(c.kind === 'text' ? neutralise(text) : text)
        })
        .join(','),
    )
  }
  return `${lines.join('\r\n')}\r\n`
}

export interface EvidenceInput {
  state: RunState
  rows: readonly RunRow[]
  original: Uint8Array
  journal: MovementView[]
  reportCsv: string
}

/** The evidence pack as ZIP bytes; manifest.json lists every other file with its SHA-256. */
export function evidencePack(input: EvidenceInput): Uint8Array {
  const { state } = input
  const files: Record<string, Uint8Array> = {
    [state.storedFile]: input.original,
    [`${state.storedFile}.sha256`]: strToU8(`${state.fileSha256}  ${state.storedFile}\n`),
    'mapping.json': json({ file: state.fileName, sheet: state.sheet, header: state.header }),
    'rows.json': json(input.rows),
    'run.json': json(state),
    'journal.json': json(input.journal),
    'report.csv': strToU8(input.reportCsv),
  }
  const manifest = {
    run: state.id,
    file: state.fileName,
    fileSha256: state.fileSha256,
    files: Object.entries(files).map(([name, bytes]) => ({ name, bytes: bytes.length, sha256: sha256Hex(bytes) })),
  }
  return zipSync({ ...files, 'manifest.json': json(manifest) }, { level: 6 })
}

function json(value: unknown): Uint8Array {
  return strToU8(`${JSON.stringify(value, null, 2)}\n`)
}

/**
 * XLSX with the rows and a Summary sheet (rows and amount per status). Text stays text (account
 * numbers keep their leading zeros); amounts are written as exact decimal text with two places.
 */
export function tableToXlsx(table: ExportTable): Uint8Array {
  const header = table.columns.map((c) => c.header)
  const body = table.rows.map((row) =>
    table.columns.map((c) => {
      const value = row[c.key]
      if (value === null || value === undefined) return ''
      if (c.kind === 'integer' && typeof value === 'number') return value
      return c.kind === 'text' ? neutralise(String(value)) : String(value)
    }),
  )
  const book = XLSX.utils.book_new()
  const sheet = XLSX.utils.aoa_to_sheet([header, ...body])
  XLSX.utils.book_append_sheet(book, sheet, 'Rows')
  const groups = new Map<string, { rows: number; amount: bigint }>()
  for (const row of table.rows) {
    const key = (table.summary?.groupBy ?? ['status']).map((k) => String(row[k] ?? '')).join(' / ')
    const group = groups.get(key) ?? { rows: 0, amount: 0n }
    group.rows++
    const amount = row[table.summary?.amount ?? 'amount']
    if (typeof amount === 'string' && amount !== '') group.amount += toMinorUnits(amount)
    groups.set(key, group)
  }
  const summary = [
    [(table.summary?.groupBy ?? ['status']).join(' / '), 'Rows', 'Amount'],
    ...[...groups.entries()].map(([key, g]) => [key, g.rows, formatMinorUnits(g.amount)]),
  ]
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(summary), 'Summary')
  return XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Uint8Array
}
