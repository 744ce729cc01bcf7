import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as XLSX from 'xlsx'
import { unzipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { historyExportTable, historyTotals } from '../../../../../../shared/domain/history'
import type { HistoryItem } from '../../../../../../shared/domain/history'
import { writeExportTable } from '../../../../../../electron/main/services/export/table-export'
import { reviewHistoryFile } from '../../../../../../electron/main/services/history/offline-history'
import { NotForFastReader, openWorkbookSheets } from '../../../../../../electron/main/services/export/xlsx-reader'
import { zipDirectory } from '../../../../../../electron/main/services/export/zip'
import { recentPayoutsTable } from '../../../../../../electron/main/services/export/recent-payouts-table'
import type { MovementView } from '../../../../../../shared/domain/journal'
import { EMPTY_DIRECTORY, institutionDirectory } from '../../../../../../shared/words/institutions'

const DIRECTORY = institutionDirectory([{ code: '058', name: 'Guaranty Trust Bank', country: 'NG' }], [])

function item(n: number, overrides: Partial<HistoryItem> = {}): HistoryItem {
  return {
    pointer: `ptr_${n}`,
    reference: `ref-${n}`,
    status: n % 3 === 0 ? 'failed' : 'success',
    amount: `${n}.${String(n % 100).padStart(2, '0')}`,
    fee: '10.00',
    currency: n % 2 === 0 ? 'NGN' : 'KES',
    narration: `payout ${n}`,
    trace_id: n % 3 === 0 ? null : `trace-${n}`,
    message: n % 3 === 0 ? 'Invalid account' : 'Transfer successful',
    customer_name: 'Ada Obi',
    customer_email: 'ada@example.com',
    date_created: `2026-03-0${(n % 5) + 1} 10:00:0${n % 10}`,
    date_completed: n % 3 === 0 ? null : '2026-03-06 00:00:00',
    ...overrides,
  }
}

const ITEMS = [
  ...Array.from({ length: 12 }, (_, n) => item(n + 1)),
  item(13, { narration: '=1+1' }),
  item(14, { narration: "'already" }),
]

async function exported(format: 'xlsx' | 'csv'): Promise<{ path: string; bytes: Buffer }> {
  const path = join(await mkdtemp(join(tmpdir(), 'review-')), `history.${format}`)
  await writeExportTable(historyExportTable(ITEMS), path, format)
  return { path, bytes: await readFile(path) }
}

describe('offline review of our own files', () => {
  for (const format of ['xlsx', 'csv'] as const) {
    it(`reads a ${format.toUpperCase()} export back to the same items and the same exact totals`, async () => {
      const { bytes } = await exported(format)
      const reviewed = reviewHistoryFile(bytes, `history.${format}`)
      expect(reviewed.source).toMatchObject({ fileName: `history.${format}`, format })
      expect(reviewed.items).toHaveLength(ITEMS.length)
      // Every field comes back as it went out, the dates too (date cells in XLSX, ISO 8601 in CSV).
      expect(reviewed.items.map(({ pointer: _p, ...rest }) => rest)).toEqual(
        ITEMS.map(({ pointer: _p, ...rest }) => rest),
      )
      expect(reviewed.items[0]?.date_created).toBe('2026-03-02 10:00:01')
      expect(reviewed.items[2]?.date_completed).toBeNull()
      expect(historyTotals(reviewed.items)).toEqual(historyTotals(ITEMS))
    })
  }
})

describe('offline review of a recent-payouts export (the journal)', () => {
  const movement = (n: number, state: MovementView['state']): MovementView => ({
    reference: `PD-${n}`,
    kind: 'payout',
    profileId: 'sandbox',
    profileMode: 'sandbox',
    request: {
      destination: {
        type: 'bank_account',
        amount: `${n}00.50`,
        currency: 'NGN',
        narration: `payout ${n}`,
        bank_account: { bank: '058', account: '0123456789' },
        customer: { name: 'Zoë', email: 'zoe@example.com' },
      },
    },
    state,
    createdAt: `2026-03-0${n}T10:00:0${n}.250Z`,
    updatedAt: `2026-03-0${n}T10:05:00.000Z`,
    timeline: [{ seq: 1, at: `2026-03-0${n}T10:05:00.000Z`, state, note: 'x', data: { trace_id: `T${n}` } }],
  })
  const MOVEMENTS = [movement(1, 'success'), movement(2, 'processing'), movement(3, 'failed')]

  for (const format of ['xlsx', 'csv'] as const) {
    it(`reads a ${format.toUpperCase()} export back with the same references, amounts and times`, async () => {
      const path = join(await mkdtemp(join(tmpdir(), 'recent-')), `recent.${format}`)
      await writeExportTable(recentPayoutsTable(MOVEMENTS, DIRECTORY), path, format)
      const reviewed = reviewHistoryFile(await readFile(path), `recent.${format}`)
      expect(
        reviewed.items.map((i) => [i.reference, i.status, i.amount, i.trace_id, i.date_created, i.date_completed]),
      ).toEqual([
        ['PD-3', 'failed', '300.50', 'T3', '2026-03-03 10:00:03', '2026-03-03 10:05:00'],
        ['PD-2', 'processing', '200.50', 'T2', '2026-03-02 10:00:02', null],
        ['PD-1', 'success', '100.50', 'T1', '2026-03-01 10:00:01', '2026-03-01 10:05:00'],
      ])
    })
  }

  it('names the bank of each destination, not its code', () => {
    const table = recentPayoutsTable(MOVEMENTS, DIRECTORY)
    expect(table.rows[0]?.destination).toBe('Guaranty Trust Bank · 0123456789')
    expect(recentPayoutsTable(MOVEMENTS, EMPTY_DIRECTORY).rows[0]?.destination).toBe('Bank 058 · 0123456789')
  })
})

describe('files that are not ours or are damaged', () => {
  const review =
    (bytes: Uint8Array, name = 'file.xlsx') =>
    () =>
      reviewHistoryFile(bytes, name)

  it('says an empty file is empty', () => {
    expect(review(new Uint8Array(0), 'empty.csv')).toThrow('empty.csv: the file is empty.')
  })

  it('says a truncated XLSX is damaged', async () => {
    const { bytes } = await exported('xlsx')
    expect(review(bytes.subarray(0, Math.floor(bytes.length / 2)), 'cut.xlsx')).toThrow(
      /^cut\.xlsx: the file is damaged: .*cut short/,
    )
  })

  it('says random bytes are not an export', () => {
    const random = new Uint8Array(4096).map((_, i) => (i * 7919 + 13) % 256)
    expect(review(random, 'noise.bin')).toThrow(/noise\.bin: not a Payout Desk export: .*neither an XLSX workbook nor/)
  })

  it('says a workbook without our marker is not ours, naming its sheets', () => {
    const book = XLSX.utils.book_new()
    XLSX.utils.book_append_sheet(
      book,
      XLSX.utils.aoa_to_sheet([
        ['Reference', 'Amount'],
        ['x', 1],
      ]),
      'Payments',
    )
    const bytes = XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer
    expect(review(bytes, 'other.xlsx')).toThrow(
      'other.xlsx: not a Payout Desk export: the workbook has no Payout Desk marker (its sheets: Payments).',
    )
  })

  it('says a CSV with another header row is not ours', () => {
    const bytes = Buffer.from('Date,Description,Amount\r\n2026-01-01,Coffee,3.50\r\n')
    expect(review(bytes, 'bank.csv')).toThrow(
      /bank\.csv: not a Payout Desk export: its first row is not the header row of one/,
    )
  })

  it('says a CSV cut short is damaged, naming the row', async () => {
    const { bytes } = await exported('csv')
    const text = bytes.toString('utf8')
    const cut = text.slice(0, text.indexOf('ref-5') + 20)
    expect(review(Buffer.from(cut), 'cut.csv')).toThrow(
      /cut\.csv: the file is damaged: row 6 has \d+ fields, expected 12/,
    )
  })

  it('points from a Summary file to the export itself', async () => {
    const { path } = await exported('csv')
    const summary = await readFile(path.replace(/\.csv$/, '.summary.csv'))
    expect(review(summary, 'history.summary.csv')).toThrow(/Summary file of a CSV export/)
  })

  it('names the cell of an amount changed to something inexact', async () => {
    const { bytes } = await exported('csv')
    const changed = bytes.toString('utf8').replace(',1.01,', ',1.015,')
    expect(review(Buffer.from(changed), 'edited.csv')).toThrow(
      /edited\.csv: row 2, column "Amount" is not an exact amount/,
    )
  })

  it('says a workbook whose rows were removed no longer matches its marker', async () => {
    const { bytes, path } = await exported('xlsx')
    const book = XLSX.read(bytes)
    const sheet = book.Sheets['Payout history']
    if (!sheet) throw new Error('no data sheet')
    sheet['!ref'] = 'A1:L5'
    await writeFile(path, XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer)
    expect(review(await readFile(path), 'short.xlsx')).toThrow(
      'short.xlsx: the file is damaged: it was exported with 14 rows but holds 4.',
    )
  })
})

describe('reading XLSX fast, and exactly', () => {
  const review = (bytes: Uint8Array, name: string) => () => reviewHistoryFile(bytes, name)
  const TRICKY = [
    '  edge spaces  ',
    'line\r\nbreaks\nand\rreturns',
    'tab\there',
    'control \u0001\u001f characters',
    '_x0041_ is not an A',
    '& < > " \' ]]>',
    'Ümlaut ₦ 中文 😀',
    '=SUM(A1:A2)',
    "'quoted",
  ]
  const trickyItems = TRICKY.map((narration, n) => item(n + 1, { narration, message: TRICKY[(n + 4) % TRICKY.length] }))

  async function exportedXlsx(items: HistoryItem[]): Promise<Buffer> {
    const path = join(await mkdtemp(join(tmpdir(), 'review-')), 'history.xlsx')
    await writeExportTable(historyExportTable(items), path, 'xlsx')
    return readFile(path)
  }

  it('gives back every text exactly as exported: spaces, line breaks, controls, escapes, XML, any script', async () => {
    const reviewed = reviewHistoryFile(await exportedXlsx(trickyItems), 'tricky.xlsx')
    expect(reviewed.items.map((i) => [i.narration, i.message])).toEqual(
      trickyItems.map((i) => [i.narration, i.message]),
    )
    // Our own files never need SheetJS to be read back.
    const sheets = openWorkbookSheets(await exportedXlsx(trickyItems))
    expect(sheets?.rows('Payout history', 100)).toHaveLength(TRICKY.length + 1)
  })

  it('reads the same workbook saved again with shared strings, as Excel and LibreOffice save it', async () => {
    const book = XLSX.read(await exportedXlsx(ITEMS))
    const resaved = XLSX.write(book, { type: 'buffer', bookType: 'xlsx', bookSST: true }) as Buffer
    expect(zipDirectory(resaved)?.has('xl/sharedStrings.xml')).toBe(true)
    const reviewed = reviewHistoryFile(resaved, 'resaved.xlsx')
    expect(reviewed.items.map((i) => [i.reference, i.amount, i.narration, i.trace_id, i.date_created])).toEqual(
      ITEMS.map((i) => [i.reference, i.amount, i.narration, i.trace_id, i.date_created]),
    )
  })

  it('reads exports of format 1, whose dates were ISO 8601 text, to the same dates', async () => {
    const book = XLSX.read(await exportedXlsx(ITEMS))
    const sheet = book.Sheets['Payout history']
    const marker = book.Sheets['PayoutDesk']
    if (!sheet || !marker) throw new Error('no data or marker sheet')
    ITEMS.forEach((item, index) => {
      sheet[`K${index + 2}`] = { t: 's', v: item.date_created.replace(' ', 'T') }
    })
    marker['B1'] = { t: 'n', v: 1 }
    const earlier = XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer
    expect(reviewHistoryFile(earlier, 'format1.xlsx').items.map((i) => i.date_created)).toEqual(
      ITEMS.map((i) => i.date_created),
    )
  })

  it('names the cell of a date changed to something that is not a date', async () => {
    const book = XLSX.read(await exportedXlsx(ITEMS))
    const sheet = book.Sheets['Payout history']
    if (!sheet) throw new Error('no data sheet')
    sheet['K3'] = { t: 's', v: 'last Tuesday' }
    const changed = XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer
    expect(() => reviewHistoryFile(changed, 'changed.xlsx')).toThrow(
      'changed.xlsx: row 3, column "Created (UTC)" is not a date.',
    )
  })

  it('reads exports of earlier versions (SheetJS "str" cells) the same way', async () => {
    const book = XLSX.read(await exportedXlsx(ITEMS))
    const earlier = XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer
    expect(reviewHistoryFile(earlier, 'earlier.xlsx').items.map((i) => [i.reference, i.fee, i.narration])).toEqual(
      ITEMS.map((i) => [i.reference, i.fee, i.narration]),
    )
  })

  it('hands a workbook it does not know (a formula cell) to SheetJS, which reads its cached value', async () => {
    const book = XLSX.read(await exportedXlsx(ITEMS))
    const sheet = book.Sheets['Payout history']
    if (!sheet) throw new Error('no data sheet')
    sheet['H2'] = { t: 's', v: 'from a formula', f: '"from a " & "formula"' }
    const withFormula = XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer
    expect(() => openWorkbookSheets(withFormula)?.rows('Payout history', 100)).toThrow(NotForFastReader)
    expect(reviewHistoryFile(withFormula, 'formula.xlsx').items[0]?.narration).toBe('from a formula')
  })

  it('says a workbook whose sheet fails its checksum is damaged', async () => {
    const bytes = Buffer.from(await exportedXlsx(ITEMS))
    const name = 'xl/worksheets/sheet1.xml'
    let compressed = 0
    unzipSync(bytes, {
      filter: (file) => {
        if (file.name === name) compressed = file.size
        return false
      },
    })
    // The entry's local header (30 bytes, then its name, no extra field) comes first in the file.
    const dataStart = bytes.indexOf(name) + name.length
    expect(bytes.readUInt32LE(dataStart - name.length - 30)).toBe(0x04034b50)
    const at = dataStart + Math.floor(compressed / 2)
    bytes.writeUInt8(bytes.readUInt8(at) ^ 0x55, at)
    expect(review(bytes, 'flipped.xlsx')).toThrow(/^flipped\.xlsx: the file is damaged: .*sheet1\.xml/)
  })

  it('says a workbook whose stored (uncompressed) sheet was altered is damaged, not read with the altered text', async () => {
    const book = XLSX.read(await exportedXlsx(ITEMS))
    const stored = XLSX.write(book, { type: 'buffer', bookType: 'xlsx', compression: false }) as Buffer
    expect(reviewHistoryFile(stored, 'stored.xlsx').items[6]?.narration).toBe('payout 7')
    // Same length, still a valid sheet: only the CRC-32 can tell.
    const at = stored.indexOf('payout 7<')
    expect(at).toBeGreaterThan(0)
    const altered = Buffer.from(stored)
    altered.write('payout 9<', at, 'latin1')
    expect(review(altered, 'altered.xlsx')).toThrow(/^altered\.xlsx: the file is damaged: .*sheet1\.xml/)
  })
})
