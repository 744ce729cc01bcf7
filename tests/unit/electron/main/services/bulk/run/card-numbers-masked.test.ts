/**
 * A card number the importer flagged in a sheet (decision 102): the run keeps it masked (first six,
 * last four) in rows.json and in its copy of the original file, the row stays flagged and unsendable,
 * and the run's report and evidence pack go through with it masked, for a run made before too.
 */
import { readFile, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { strFromU8, unzipSync } from 'fflate'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { BulkImportResult } from '../../../../../../../shared/domain/bulk'
import type { RunRow } from '../../../../../../../shared/domain/bulk-run'
import { looksLikeCardNumber } from '../../../../../../../shared/rules/sensitive-data'
import { startSandbox, type RunningSandbox } from '../../../../../../../electron/sandbox'
import { evidencePack, reportTable } from '../../../../../../../electron/main/services/bulk/run/run-report'
import { assertExportable } from '../../../../../../../electron/main/services/export/export-guard'
import { tableToCsv } from '../../../../../../../electron/main/services/export/table-export'
import { csvBytes, openHarness, sheetOf, type Harness } from './harness'

const KEY = 'sk_test_bulk_cards'
const CARD = '4111 1111 1111 1111'
let sandbox: RunningSandbox
let dir: string
let harness: Harness | undefined

beforeEach(async () => {
  sandbox = await startSandbox({ secretKey: KEY, encryptionKey: 'bulk-card-test-encryption-key-32', settleMs: 50 })
  dir = await mkdtemp(join(tmpdir(), 'bulk-cards-'))
})
afterEach(async () => {
  await harness?.close()
  harness = undefined
  await sandbox.close()
  await rm(dir, { recursive: true, force: true })
})

/** A sheet whose second row's narration holds a card number, flagged as the importer flags it. */
function sheetWithCard(): BulkImportResult {
  const sheet = sheetOf(3)
  sheet.items[1]!.narration = `Refund to card ${CARD}`
  sheet.errors.push({
    row: sheet.items[1]!.row,
    column: 'narration',
    code: 'card_number',
    message: 'The narration looks like a card number: card numbers are never sent in a payout. Remove it.',
  })
  sheet.valid -= 1
  return sheet
}

describe('card numbers the importer flagged', () => {
  it('are kept masked in rows.json and in the run’s copy of the original, and the row stays flagged', async () => {
    harness = await openHarness({ userDataDir: dir, sandboxUrl: sandbox.url, secretKey: KEY })
    const sheet = sheetWithCard()
    const view = await harness.service.create({ result: sheet, bytes: csvBytes(sheet), currency: 'NGN' })
    const folder = join(dir, 'bulk-runs', view.id)
    const rowsJson = await readFile(join(folder, 'rows.json'), 'utf8')
    const original = await readFile(join(folder, 'original.csv'), 'utf8')
    expect(looksLikeCardNumber(rowsJson)).toBe(false)
    expect(looksLikeCardNumber(original)).toBe(false)
    expect(rowsJson).toContain('Refund to card 4111 11** **** 1111')
    expect(original).toContain('Refund to card 4111 11** **** 1111')
    // The rest of the file is as it was handed over; its checksum file is that of the copy kept.
    expect(original.replace('4111 11** **** 1111', CARD)).toBe(new TextDecoder().decode(csvBytes(sheet)))
    const state = harness.service.stateOf(view.id)
    expect(await readFile(join(folder, 'original.csv.sha256'), 'utf8')).not.toContain(state.fileSha256)
    // Still flagged, and never sent.
    const row = harness.service.rows(view.id)[1]!
    expect(row.errors.map((error) => error.code)).toContain('card_number')
  })

  it('never block a run’s report or evidence pack: an excluded row holding one is reported masked', async () => {
    harness = await openHarness({ userDataDir: dir, sandboxUrl: sandbox.url, secretKey: KEY })
    const sheet = sheetOf(2)
    const view = await harness.service.create({ result: sheet, bytes: csvBytes(sheet), currency: 'NGN' })
    const state = harness.service.stateOf(view.id)
    // A run made before decision 102 kept the card number whole in an excluded row.
    const rows: RunRow[] = harness.service.rows(view.id).map((row, index) =>
      index === 1
        ? {
            ...row,
            item: { ...row.item, narration: `Card ${CARD}` },
            excluded: true,
            excludedWhy: 'by_hand',
            errors: [{ row: row.item.row, column: 'narration', code: 'card_number', message: 'card number' }],
          }
        : row,
    )
    const table = reportTable(state, rows)
    expect(() => assertExportable(table)).not.toThrow()
    const csv = tableToCsv(table).data
    expect(csv).toContain('Card 4111 11** **** 1111')
    expect(looksLikeCardNumber(csv)).toBe(false)
    const raw = new TextEncoder().encode(`narration\nCard ${CARD}\n`)
    const zip = unzipSync(evidencePack({ state, rows, original: raw, journal: [], reportCsv: csv }))
    expect(looksLikeCardNumber(strFromU8(zip['rows.json']!))).toBe(false)
    expect(strFromU8(zip['rows.json']!)).toContain('Card 4111 11** **** 1111')
  })
})
