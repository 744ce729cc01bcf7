import { mkdtemp, readdir, readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { strFromU8, unzipSync } from 'fflate'
import * as XLSX from 'xlsx'
import { describe, expect, it } from 'vitest'
import type { ExportTable } from '../../../../../../shared/domain/export'
import { parseCsv } from '../../../../../../electron/main/services/export/csv'
import {
  csvSummaryPath,
  exportTableWithDialog,
  writeExportTable,
} from '../../../../../../electron/main/services/export/table-export'
import type { SaveDialogRequest } from '../../../../../../electron/main/adapters/desktop'
import { createBridgeDesktop } from '../../../../../../electron/main/adapters/bridge-desktop'
import { columnWidths } from '../../../../../../electron/main/services/export/xlsx-writer'
import { restoreCsvText } from '../../../../../../electron/main/services/export/cell-safety'

const HOSTILE = ['=HYPERLINK("http://evil.example","click")', '+1', '-2+3', '@SUM(A1:A2)', '\tx', '\rx', "'quoted"]

function payoutsTable(): ExportTable {
  return {
    title: 'Payout history',
    columns: [
      { key: 'reference', header: 'Reference', kind: 'text' },
      { key: 'status', header: 'Status', kind: 'text' },
      { key: 'amount', header: 'Amount', kind: 'amount' },
      { key: 'currency', header: 'Currency', kind: 'text' },
      { key: 'narration', header: 'Narration', kind: 'text' },
      { key: 'date_created', header: 'Created', kind: 'date' },
      { key: 'attempts', header: 'Attempts', kind: 'integer' },
    ],
    rows: [
      {
        reference: 'ref-1',
        status: 'success',
        amount: '1500.50',
        currency: 'NGN',
        narration: 'Rent, "March"',
        date_created: '2026-03-01 10:20:30',
        attempts: 1,
      },
      {
        reference: 'ref-2',
        status: 'success',
        amount: '0.10',
        currency: 'NGN',
        narration: 'Line\nbreak',
        date_created: '2026-03-02T08:00:00Z',
        attempts: 2,
      },
      {
        reference: 'ref-3',
        status: 'success',
        amount: '0.20',
        currency: 'NGN',
        narration: null,
        date_created: '2026-03-02',
        attempts: null,
      },
      {
        reference: 'ref-4',
        status: 'failed',
        amount: 99999999.99,
        currency: 'KES',
        narration: 'Ümlaut ₦',
        date_created: '2026-03-03 00:00:00',
        attempts: 1,
      },
      ...HOSTILE.map((narration, index) => ({
        reference: `hostile-${index}`,
        status: 'processing',
        amount: '1',
        currency: 'GHS',
        narration,
        date_created: '2026-03-04 12:00:00',
        attempts: 0,
      })),
    ],
    summary: { groupBy: ['status', 'currency'], amount: 'amount' },
  }
}

async function tempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'export-'))
}

function sheetRows(book: XLSX.WorkBook, name: string): XLSX.CellObject[][] {
  const sheet = book.Sheets[name]
  if (!sheet) throw new Error(`no sheet ${name}`)
  const range = XLSX.utils.decode_range(sheet['!ref'] ?? 'A1')
  const rows: XLSX.CellObject[][] = []
  for (let r = range.s.r; r <= range.e.r; r++) {
    const row: XLSX.CellObject[] = []
    for (let c = range.s.c; c <= range.e.c; c++) row.push(sheet[XLSX.utils.encode_cell({ r, c })] ?? { t: 'z' })
    rows.push(row)
  }
  return rows
}

describe('export to XLSX', () => {
  it('writes a header row, dates as date cells in UTC, amounts as numbers with two decimals and text as text', async () => {
    const path = join(await tempDir(), 'history.xlsx')
    expect(await writeExportTable(payoutsTable(), path, 'xlsx')).toEqual({ path, rows: 11 })
    const book = XLSX.read(await readFile(path), { cellNF: true, cellDates: true, UTC: true })
    expect(book.SheetNames).toEqual(['Payout history', 'Summary', 'PayoutDesk'])
    const rows = sheetRows(book, 'Payout history')
    expect(rows[0]?.map((cell) => cell.v)).toEqual([
      'Reference',
      'Status',
      'Amount',
      'Currency',
      'Narration',
      'Created',
      'Attempts',
    ])
    const first = rows[1] ?? []
    expect(first[2]).toMatchObject({ t: 'n', v: 1500.5, z: '#,##0.00', w: '1,500.50' })
    expect(first[4]).toMatchObject({ t: 's', v: 'Rent, "March"' })
    // A real date cell: Excel can sort and filter it as a date. The service's form is UTC.
    expect(first[5]).toMatchObject({ t: 'd', z: 'yyyy\\-mm\\-dd\\ hh:mm:ss', w: '2026-03-01 10:20:30' })
    expect((first[5]?.v as Date).toISOString()).toBe('2026-03-01T10:20:30.000Z')
    expect((rows[2]?.[5]?.v as Date).toISOString()).toBe('2026-03-02T08:00:00.000Z')
    expect(rows[3]?.[5]?.w).toBe('2026-03-02 00:00:00')
    expect(rows[3]?.[4]?.t).toBe('z')
    expect(rows[4]?.[2]).toMatchObject({ t: 'n', v: 99999999.99, w: '99,999,999.99' })
    expect(rows[5]?.[2]?.w).toBe('1.00')
  })

  it('writes each amount as its exact decimal text, never a float, and each date as the serial of its UTC instant', async () => {
    const path = join(await tempDir(), 'exact.xlsx')
    const table = payoutsTable()
    table.rows = [
      { ...table.rows[0], amount: '12345678901234567.89', date_created: '2026-03-01T11:20:30+01:00' },
      { ...table.rows[1], amount: '0.10', date_created: '2026-03-01T10:20:30.250Z' },
    ]
    await writeExportTable(table, path, 'xlsx')
    const sheet = unzipSync(new Uint8Array(await readFile(path)))['xl/worksheets/sheet1.xml']
    const xml = strFromU8(sheet ?? new Uint8Array())
    expect(xml).toContain('<c r="C2" s="1"><v>12345678901234567.89</v></c>')
    expect(xml).toContain('<c r="C3" s="1"><v>0.10</v></c>')
    // 2026-03-01 is day 46082 of the 1900 date system; 10:20:30 is 37230 s of 86400. +01:00 is an hour earlier in UTC.
    expect(xml).toContain(`<c r="F2" s="3"><v>${46082 + 37230 / 86400}</v></c>`)
    expect(xml).toContain(`<c r="F3" s="3"><v>${46082 + 37230.25 / 86400}</v></c>`)
  })

  it('freezes and filters the header row and sizes each column to what it holds', async () => {
    const path = join(await tempDir(), 'layout.xlsx')
    const table = payoutsTable()
    table.rows[0] = { ...table.rows[0], narration: 'A narration much longer than its header, as people write them' }
    await writeExportTable(table, path, 'xlsx')
    const parts = unzipSync(new Uint8Array(await readFile(path)))
    const sheet = strFromU8(parts['xl/worksheets/sheet1.xml'] ?? new Uint8Array())
    expect(sheet).toContain('<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>')
    expect(sheet).toContain('<autoFilter ref="A1:G12"/>')
    expect(strFromU8(parts['xl/workbook.xml'] ?? new Uint8Array())).toContain(
      `<definedName name="_xlnm._FilterDatabase" localSheetId="0" hidden="1">'Payout history'!$A$1:$G$12</definedName>`,
    )
    const book = XLSX.read(await readFile(path), { cellStyles: true })
    const widths = (book.Sheets['Payout history']?.['!cols'] ?? []).map((col) => col?.width)
    // Reference: its header and room for the filter button; Narration: its longest text (64 characters), capped.
    expect(widths).toEqual([12, 11, 14, 11, 60, 20, 11])
    expect(columnWidths(table)[2]).toBe(14) // "99,999,999.99" and one character to spare
  })

  it('keeps every hostile cell as text with a leading quote, never a formula', async () => {
    const path = join(await tempDir(), 'hostile.xlsx')
    await writeExportTable(payoutsTable(), path, 'xlsx')
    const book = XLSX.read(await readFile(path), { cellFormula: true })
    const rows = sheetRows(book, 'Payout history').slice(5)
    expect(rows.map((row) => row[4]?.t)).toEqual(HOSTILE.map(() => 's'))
    expect(rows.map((row) => row[4]?.v)).toEqual(HOSTILE.map((text) => `'${text}`))
    expect(rows.some((row) => row.some((cell) => cell.f !== undefined))).toBe(false)
  })

  it('adds a Summary sheet with counts and exact totals per status and currency', async () => {
    const table = payoutsTable()
    // 0.10 + 0.20 is 0.30 exactly in bigint; in floating point it would be 0.30000000000000004.
    const path = join(await tempDir(), 'summary.xlsx')
    await writeExportTable(table, path, 'xlsx')
    const rows = sheetRows(XLSX.read(await readFile(path)), 'Summary')
    expect(rows.map((row) => row.map((cell) => cell.w ?? cell.v ?? ''))).toEqual([
      ['Status', 'Currency', 'Count', 'Total'],
      ['failed', 'KES', '1', '99,999,999.99'],
      ['processing', 'GHS', '7', '7.00'],
      ['success', 'NGN', '3', '1,500.80'],
      ['', '', '', ''],
      ['Rows', '11', '', ''],
    ])
    expect(rows[3]?.[3]?.v).toBe(1500.8)
    expect(rows[0]?.map((cell) => cell.t)).toEqual(['s', 's', 's', 's'])
  })

  it('marks the file as ours in a hidden sheet with the columns', async () => {
    const path = join(await tempDir(), 'marker.xlsx')
    await writeExportTable(payoutsTable(), path, 'xlsx', new Date('2026-11-22T01:02:03Z'))
    const book = XLSX.read(await readFile(path))
    expect(book.Workbook?.Sheets?.[2]?.Hidden).toBe(1)
    const rows = sheetRows(book, 'PayoutDesk')
    expect(rows[0]?.[0]?.v).toBe('Payout Desk export')
    expect(rows[1]?.[1]?.v).toBe('Payout history')
    expect(rows[2]?.[1]?.v).toBe(11)
    expect(rows[3]?.[1]?.v).toBe('2026-11-22T01:02:03.000Z')
    expect(rows.slice(5).map((row) => [row[0]?.v, row[2]?.v])).toEqual([
      ['reference', 'text'],
      ['status', 'text'],
      ['amount', 'amount'],
      ['currency', 'text'],
      ['narration', 'text'],
      ['date_created', 'date'],
      ['attempts', 'integer'],
    ])
  })
})

describe('export to CSV', () => {
  it('writes RFC 4180 UTF-8 with BOM, amounts as plain decimal text, and the Summary in a second file', async () => {
    const path = join(await tempDir(), 'history.csv')
    await writeExportTable(payoutsTable(), path, 'csv')
    const bytes = await readFile(path)
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    const text = bytes.toString('utf8')
    // Dates are ISO 8601 in UTC, with their zone.
    expect(text).toContain('\r\nref-1,success,1500.50,NGN,"Rent, ""March""",2026-03-01T10:20:30Z,1\r\n')
    const records = parseCsv(text, 100)
    expect(records[0]).toEqual(['Reference', 'Status', 'Amount', 'Currency', 'Narration', 'Created', 'Attempts'])
    expect(records[2]?.[4]).toBe('Line\nbreak')
    expect(records[4]?.slice(2, 5)).toEqual(['99999999.99', 'KES', 'Ümlaut ₦'])
    expect(records.slice(1, 5).map((record) => record[5])).toEqual([
      '2026-03-01T10:20:30Z',
      '2026-03-02T08:00:00Z',
      '2026-03-02T00:00:00Z',
      '2026-03-03T00:00:00Z',
    ])
    expect(records.slice(5).map((record) => record[4])).toEqual(HOSTILE.map((value) => `'${value}`))

    const summary = parseCsv(await readFile(csvSummaryPath(path), 'utf8'), 100)
    expect(summary).toEqual([
      ['Status', 'Currency', 'Count', 'Total'],
      ['failed', 'KES', '1', '99999999.99'],
      ['processing', 'GHS', '7', '7.00'],
      ['success', 'NGN', '3', '1500.80'],
    ])
  })

  it("neutralises a formula after a separator another locale splits at (Excel in a ';' locale), and reads back exact", async () => {
    const inner = ['Salary;=1+1', 'Rent,+cmd|calc', 'a\t@SUM(A1)', "note;'=x", 'a;;=b', "x;'", 'Plain; text, fine']
    const table = payoutsTable()
    table.rows = inner.map((narration, i) => ({ ...table.rows[0], reference: `ref-in-${i}`, narration }))
    const path = join(await tempDir(), 'locale.csv')
    await writeExportTable(table, path, 'csv')
    const text = (await readFile(path, 'utf8')).replace(/^\uFEFF/, '')
    // Read as Excel does in a ';' (or tab) locale: every line split at ';' and tabs, quotes ignored.
    const fields = text.split('\r\n').flatMap((line) => line.split(/[;\t]/))
    expect(fields.filter((field) => /^[=+\-@]/.test(field))).toEqual([])
    const written = parseCsv(text, 100)
      .slice(1)
      .map((record) => record[4] ?? '')
    expect(written[0]).toBe("Salary;'=1+1")
    expect(written.map(restoreCsvText)).toEqual(inner)
    // Text with no trigger after a separator is written as it is.
    expect(written[6]).toBe('Plain; text, fine')
  })

  it('is read by SheetJS as the same table, hostile cells still text', async () => {
    const path = join(await tempDir(), 'sheetjs.csv')
    await writeExportTable(payoutsTable(), path, 'csv')
    const book = XLSX.read(await readFile(path), { type: 'buffer', raw: true })
    const rows = sheetRows(book, book.SheetNames[0] ?? '')
    expect(rows.slice(5).map((row) => row[4]?.v)).toEqual(HOSTILE.map((value) => `'${value}`))
  })
})

describe('what is never exported', () => {
  it('refuses a card number or a key in any cell and writes nothing', async () => {
    const dir = await tempDir()
    for (const narration of ['card 5399 8343 1234 5671', '4111111111111111', 'key sk_test_abcdef123']) {
      const table = payoutsTable()
      table.rows[0] = { ...table.rows[0], narration }
      await expect(writeExportTable(table, join(dir, 'x.xlsx'), 'xlsx')).rejects.toThrow(
        /looks like a key or a card number/,
      )
      await expect(writeExportTable(table, join(dir, 'x.csv'), 'csv')).rejects.toThrow(/row 1, column "Narration"/)
    }
    expect(await readdir(dir)).toEqual([])
  })

  it('refuses a column named like card data or a key', async () => {
    const table = payoutsTable()
    table.columns.push({ key: 'card_number', header: 'Card', kind: 'text' })
    await expect(writeExportTable(table, join(await tempDir(), 'x.csv'), 'csv')).rejects.toThrow(
      /column "Card" may hold card data/,
    )
  })

  it('names the row and column of a date that is not a date', async () => {
    for (const date of ['2026-02-30 10:00:00', 'yesterday', '1899-12-31']) {
      const table = payoutsTable()
      table.rows[2] = { ...table.rows[2], date_created: date }
      await expect(writeExportTable(table, join(await tempDir(), 'x.xlsx'), 'xlsx')).rejects.toThrow(
        `row 4, column "Created": "${date}" is not a date`,
      )
    }
  })

  it('names the row and column of an amount that is not exact', async () => {
    const table = payoutsTable()
    table.rows[1] = { ...table.rows[1], amount: '1.005' }
    await expect(writeExportTable(table, join(await tempDir(), 'x.csv'), 'csv')).rejects.toThrow(
      /row 3, column "Amount".*more than 2 decimal places/,
    )
  })

  it('lets masked card numbers and account numbers through', async () => {
    const table = payoutsTable()
    table.rows[0] = { ...table.rows[0], narration: '539983******5671 to account 0123456789' }
    await expect(writeExportTable(table, join(await tempDir(), 'x.csv'), 'csv')).resolves.toMatchObject({ rows: 11 })
  })
})

describe('long exports', () => {
  function bigTable(rows: number): ExportTable {
    const table = payoutsTable()
    const first = table.rows[0] ?? {}
    table.rows = Array.from({ length: rows }, (_, n) => ({ ...first, reference: `ref-${n}` }))
    return table
  }

  // How long main is held at most (a wall-clock ratio) is measured by tests/bench/export-slices.ts;
  // here only that main gets turns while the rows are being written, counted, not timed.
  for (const format of ['xlsx', 'csv'] as const) {
    it(`gives main turns while it writes a ${format.toUpperCase()} (slices, not one block)`, async () => {
      const path = join(await tempDir(), `big.${format}`)
      const table = bigTable(20_000)
      // Each row says when the export reads it; main's turns see which row it read last.
      let lastRead = -1
      table.rows = table.rows.map((row, index) => {
        const watched = { ...row }
        Object.defineProperty(watched, 'reference', {
          enumerable: true,
          get: () => {
            lastRead = index
            return row.reference
          },
        })
        return watched
      })
      const seenMidway = new Set<number>()
      let running = true
      const turn = (): void => {
        if (lastRead > 0 && lastRead < table.rows.length - 1) seenMidway.add(lastRead)
        if (running) setImmediate(turn)
      }
      setImmediate(turn)
      try {
        await writeExportTable(table, path, format)
      } finally {
        running = false
      }
      // 20,000 rows are ten slices of 2,000: main had turns between them, not only before and after.
      expect(seenMidway.size).toBeGreaterThanOrEqual(5)
    })
  }

  it('refuses a text longer than a spreadsheet cell holds, naming the cell, and writes nothing', async () => {
    const dir = await tempDir()
    const table = payoutsTable()
    table.rows[2] = { ...table.rows[2], narration: 'x'.repeat(32_768) }
    await expect(writeExportTable(table, join(dir, 'long.xlsx'), 'xlsx')).rejects.toThrow(
      /row 4, column "Narration": the text is longer than the 32,767 characters/,
    )
    expect(await readdir(dir)).toEqual([])
  })
})

describe('export through the save dialog', () => {
  it('writes where the user chose, adds the extension, and writes nothing when cancelled', async () => {
    const dir = await tempDir()
    const asked: SaveDialogRequest[] = []
    const answers = [join(dir, 'chosen'), null]
    const context = {
      now: () => new Date('2026-11-22T03:00:00Z'),
      desktop: {
        ...createBridgeDesktop(),
        dialogs: {
          chooseSavePath: async (request: SaveDialogRequest) => {
            asked.push(request)
            return answers.shift() ?? null
          },
          chooseOpenPath: async () => null,
        },
      },
    }
    expect(await exportTableWithDialog(context, payoutsTable(), 'xlsx')).toEqual({
      path: join(dir, 'chosen.xlsx'),
      rows: 11,
    })
    expect(asked[0]).toMatchObject({
      defaultName: 'Payout history 2026-11-22.xlsx',
      filters: [{ extensions: ['xlsx'] }],
    })
    expect(await exportTableWithDialog(context, payoutsTable(), 'csv')).toEqual({ path: null, rows: 0 })
    expect(await readdir(dir)).toEqual(['chosen.xlsx'])
  })
})
