/**
 * `bulk:rowsDigest` answers a run whose every row is kept whole a thousand rows an answer
 * (decision 165): the answers together are the digest of every row, in order, each row once.
 */
import { describe, expect, it } from 'vitest'
import { DIGEST_KEPT_MAX, rowCode, rowKept } from '../../../../../../shared/bulk/row-codes'
import { rowsDigest } from '../../../../../../electron/main/services/bulk/row-reads'
import { rowsFromImport } from '../../../../../../electron/main/services/bulk/run/run-rows'
import { sheetOf } from './run/harness'

describe('the digest of a run, read in answers', () => {
  it('carries at most DIGEST_KEPT_MAX rows kept whole an answer, and every one of them over the answers', () => {
    const rows = rowsFromImport(sheetOf(2 * DIGEST_KEPT_MAX + 300))
    // Names that do not match on every row but every seventh: those are kept whole.
    rows.forEach((row, i) => {
      if (i % 7 !== 0) row.resolution = 'mismatch'
    })
    const first = rowsDigest(rows)
    expect(first.codes).toEqual(rows.map(rowCode))
    expect(first.kept).toHaveLength(DIGEST_KEPT_MAX)
    const kept = [...first.kept]
    let answers = 1
    for (let next = first.next; next; answers++) {
      const more = rowsDigest(rows, next)
      expect(more.codes).toEqual([])
      expect(more.kept.length).toBeLessThanOrEqual(DIGEST_KEPT_MAX)
      kept.push(...more.kept)
      next = more.next
    }
    expect(kept).toEqual(rows.filter(rowKept))
    expect(answers).toBe(Math.ceil(rows.filter(rowKept).length / DIGEST_KEPT_MAX))
  })

  it('a run with few rows kept whole is one answer', () => {
    const rows = rowsFromImport(sheetOf(50))
    rows[3]!.excluded = true
    expect(rowsDigest(rows)).toEqual({ codes: rows.map(rowCode), kept: [rows[3]], next: null })
  })
})
