/**
 * The hostile corpus itself: at least 50 files, every kind the issue names, the small ones committed
 * exactly as generate.ts builds them (so a change to a builder shows in review), the large ones
 * (50 MB, ZIP bombs, a million rows) built at test time and never committed.
 */
import { existsSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { COMMITTED_DIR, HOSTILE_FILES } from '../../fixtures/hostile/corpus'
import { hostileCorpusDir } from './hostile-corpus'

describe('the hostile corpus', () => {
  it('has at least 50 files, among them every kind the issue names', () => {
    expect(HOSTILE_FILES.length).toBeGreaterThanOrEqual(50)
    const names = HOSTILE_FILES.map((file) => file.name)
    for (const kind of [
      'truncated.xlsx',
      'zip-bomb.xlsx',
      'large-50mb.csv',
      'csv-named.xlsx',
      'binary-noise.bin',
      'proto-headers.csv',
      'wide-10000-columns.csv',
      'million-empty-rows.csv',
      'cell-1mb.csv',
      'formulas.xlsx',
      'utf16le-bom.csv',
      'utf16be-no-bom.csv',
      'windows-1252.csv',
      'latin1.csv',
      'shift-jis.csv',
      'broken-sheet-xml.xlsx',
      'xml-deep-nesting.xlsx',
      'huge-shared-strings.xlsx',
      'legacy-biff8.xls',
      'opendocument.ods',
      'html-saved-as.xls',
      'empty.csv',
      'only-utf8-bom.csv',
    ]) {
      expect(names).toContain(kind)
    }
    expect(new Set(names).size).toBe(names.length)
  })

  it('commits the small files exactly as generate.ts builds them, and none of the large ones', () => {
    for (const file of HOSTILE_FILES) {
      const path = join(COMMITTED_DIR, file.name)
      if (!file.committed) {
        expect(existsSync(path), `${file.name} is built at test time, not committed`).toBe(false)
        continue
      }
      const built = file.build() as Buffer
      expect(built.length, `${file.name} is small enough to commit`).toBeLessThan(512 * 1024)
      expect(readFileSync(path).equals(built), `${file.name} is as generate.ts builds it (run it again)`).toBe(true)
    }
  })

  it('builds the large files at their sizes', () => {
    const dir = hostileCorpusDir()
    const size = (name: string) => statSync(join(dir, name)).size
    expect(size('large-50mb.csv')).toBeGreaterThanOrEqual(50 * 1024 * 1024)
    expect(size('over-limit-70mb.csv')).toBe(70 * 1024 * 1024)
    // A ZIP bomb: under a megabyte that declares 600 MB.
    expect(size('zip-bomb.xlsx')).toBeLessThan(1024 * 1024)
  }, 120_000)
})
