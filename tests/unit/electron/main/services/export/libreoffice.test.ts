/**
 * LibreOffice opens our exports as data, without complaint: `soffice --headless --convert-to`
 * reads the XLSX and writes it again as CSV (cells as shown: amounts with separators and two
 * decimals, dates in their format) and as flat ODS, where every amount is a float cell and every
 * date a date cell with the UTC instant; our CSV opens too. Skipped, saying why, where LibreOffice
 * is not installed (it is large, so CI does not install it; `apt-get install libreoffice-calc-nogui`).
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { historyExportTable } from '../../../../../../shared/domain/history'
import type { HistoryItem } from '../../../../../../shared/domain/history'
import { writeExportTable } from '../../../../../../electron/main/services/export/table-export'
import { parseCsv } from '../../../../../../electron/main/services/export/csv'

function sofficeInstalled(): boolean {
  try {
    execFileSync('sh', ['-c', 'command -v soffice'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}
const installed = sofficeInstalled()

const ITEMS: HistoryItem[] = [
  {
    pointer: 'p1',
    reference: 'ref-1',
    status: 'success',
    amount: '1234567.50',
    fee: '53.75',
    currency: 'NGN',
    narration: 'March rent, "north" flat',
    trace_id: '000123',
    message: 'Transfer successful',
    customer_name: 'Zoë Ọkọ́nkwọ́',
    customer_email: 'zoe@example.com',
    date_created: '2026-03-01 10:20:30',
    date_completed: '2026-03-01 10:21:00',
  },
  {
    pointer: 'p2',
    reference: 'ref-2',
    status: 'failed',
    amount: '0.10',
    fee: '0.00',
    currency: 'KES',
    narration: '=1+1',
    trace_id: null,
    message: 'Invalid account',
    customer_name: 'Ada Obi',
    customer_email: 'ada@example.com',
    date_created: '2026-12-31 23:59:59',
    date_completed: null,
  },
]

let dir: string
let profile: string

/** Converts with LibreOffice; returns what it printed that is not the known notice about Java. */
function convert(file: string, to: string, infilter?: string): string {
  const result = spawnSync(
    'soffice',
    [
      '--headless',
      '--norestore',
      `-env:UserInstallation=${pathToFileURL(profile).href}`,
      ...(infilter ? [`--infilter=${infilter}`] : []),
      '--convert-to',
      to,
      '--outdir',
      dir,
      file,
    ],
    { encoding: 'utf8', timeout: 120_000 },
  )
  expect(result.status).toBe(0)
  return `${result.stdout}\n${result.stderr}`
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('convert ') && !/javaldx/.test(line))
    .join('\n')
}

describe.skipIf(!installed)(
  `LibreOffice opens the exports as data${installed ? '' : ' (skipped: soffice is not installed; apt-get install -y libreoffice-calc-nogui)'}`,
  () => {
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'libreoffice-'))
      profile = join(dir, 'profile')
      await writeExportTable(historyExportTable(ITEMS), join(dir, 'history.xlsx'), 'xlsx')
      await writeExportTable(historyExportTable(ITEMS), join(dir, 'plain.csv'), 'csv')
    })
    afterAll(async () => {
      if (dir) await rm(dir, { recursive: true, force: true })
    })

    it('shows amounts with separators and two decimals and dates in their format, with no warning', async () => {
      expect(convert(join(dir, 'history.xlsx'), 'csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,true')).toBe(
        '',
      )
      const rows = parseCsv(await readFile(join(dir, 'history.csv'), 'utf8'), 10)
      expect(rows[0]).toEqual([
        'Reference',
        'Status',
        'Amount',
        'Fee',
        'Currency',
        'Customer name',
        'Customer e-mail',
        'Narration',
        'Message',
        'Trace ID',
        'Created (UTC)',
        'Completed (UTC)',
      ])
      expect(rows[1]).toEqual([
        'ref-1',
        'success',
        '1,234,567.50',
        '53.75',
        'NGN',
        'Zoë Ọkọ́nkwọ́',
        'zoe@example.com',
        'March rent, "north" flat',
        'Transfer successful',
        '000123',
        '2026-03-01 10:20:30',
        '2026-03-01 10:21:00',
      ])
      expect(rows[2]?.slice(2, 4)).toEqual(['0.10', '0.00'])
      expect(rows[2]?.[7]).toBe("'=1+1")
      expect(rows[2]?.[10]).toBe('2026-12-31 23:59:59')
    }, 180_000)

    it('reads every amount as a number and every date as a date, and the header as filtered', async () => {
      expect(convert(join(dir, 'history.xlsx'), 'fods')).toBe('')
      const fods = await readFile(join(dir, 'history.fods'), 'utf8')
      const cells = [...fods.matchAll(/office:value-type="(float|date)" office:(?:value|date-value)="([^"]+)"/g)].map(
        (match) => `${match[1]}:${match[2]}`,
      )
      expect(cells).toEqual(
        expect.arrayContaining([
          'float:1234567.5',
          'float:53.75',
          'date:2026-03-01T10:20:30',
          'date:2026-03-01T10:21:00',
          'float:0.1',
          'date:2026-12-31T23:59:59',
        ]),
      )
      expect(fods).toMatch(
        /table:target-range-address="&apos;Payout history&apos;\.A1:&apos;Payout history&apos;\.L3" table:display-filter-buttons="true"/,
      )
    }, 180_000)

    it('opens our CSV as UTF-8, numbers as numbers, with no warning', async () => {
      // Headless, LibreOffice takes the system's character set unless told, as its import dialog asks.
      expect(convert(join(dir, 'plain.csv'), 'fods', 'CSV:44,34,76,1')).toBe('')
      const fods = await readFile(join(dir, 'plain.fods'), 'utf8')
      expect(fods).toContain('Zoë Ọkọ́nkwọ́')
      expect(fods).toContain('2026-03-01T10:20:30Z')
      expect(fods).toContain('office:value-type="float" office:value="1234567.5"')
    }, 180_000)
  },
)
