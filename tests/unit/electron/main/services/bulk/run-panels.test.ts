/**
 * `bulk:panels` (decision 171): what the open run's panels list, computed by main from every row.
 * Each list carries its first rows whole and whole counts, indexes and totals, so the renderer
 * holds a bounded answer whatever the run's size; `bulk:rowsDigest` carries codes only.
 */
import { describe, expect, it } from 'vitest'
import type { RunRow, RunView } from '../../../../../../shared/domain/bulk-run'
import { needsNameAcknowledgement } from '../../../../../../shared/domain/bulk-run'
import { rowCode } from '../../../../../../shared/bulk/row-codes'
import { isHeld } from '../../../../../../shared/bulk/payee-holds'
import { reviewOfRun, REVIEW_LIST_MAX } from '../../../../../../shared/bulk/review-figures'
import { PANEL_LIST_MAX, runPanelsOf } from '../../../../../../shared/bulk/run-panels'
import {
  DIGEST_SLICE,
  PANELS_SLICE,
  rowsDigest,
  runPanels,
} from '../../../../../../electron/main/services/bulk/row-reads'
import { rowsFromImport } from '../../../../../../electron/main/services/bulk/run/run-rows'
import { sheetOf } from './run/harness'

const ROWS = 2_300

const view = {
  mode: 'test',
  merchantBearsCost: false,
  counts: { errors: 0 },
  imported: { skipped: [], control_total: null, bank_names: [] },
  fees: { basis: 0, fees: null, debit: null, chargeable: null, perPayout: null, currency: 'NGN' },
} as unknown as RunView

/** The work's answer, and how many times other work had a turn of main while it ran. */
async function withTurnsCounted<T>(work: () => Promise<T>): Promise<{ value: T; turns: number }> {
  let turns = 0
  let running = true
  const other = (): void => {
    if (!running) return
    turns++
    setImmediate(other)
  }
  setImmediate(other)
  const value = await work()
  running = false
  return { value, turns }
}

const question = (row: RunRow, code: string): void => {
  row.errors.push({ row: row.item.row, column: null, code, message: `Asked: ${code} of row ${row.item.row}` })
}

/** A month-end run as it comes back from its name checks: most names differ, some rows asked, held or left out. */
function monthEnd(): RunRow[] {
  const rows = rowsFromImport(sheetOf(ROWS))
  rows.forEach((row, i) => {
    if (i % 7 !== 0) {
      row.resolution = 'mismatch'
      row.resolvedName = `BANK NAME ${i}`
    } else row.resolution = 'matched'
    if (i % 11 === 0) question(row, 'account_number_cell')
    if (i % 13 === 5) question(row, 'same_payment_again')
    if (i % 17 === 3) {
      row.excluded = true
      row.excludedWhy = 'by_hand'
    }
    if (i % 19 === 2)
      row.tripwires = [
        {
          kind: 'account_changed',
          account: '044 1',
          lastAccounts: ['058 2'],
          lastPaidAt: '2026-10-31T10:00:00.000Z',
          identifiedBy: 'name',
        },
      ]
  })
  return rows
}

describe('the panels of a run, from main', () => {
  it('list their first rows whole, with every count, index and total of the whole run', () => {
    const rows = monthEnd()
    const panels = runPanelsOf(view, rows)
    const inRun = rows.filter((row) => !row.excluded)

    const accounts = inRun.filter((row) => row.errors.some((e) => e.code === 'account_number_cell'))
    expect(panels.questions.accounts.indexes).toEqual(accounts.map((row) => row.index))
    expect(panels.questions.accounts.rows).toEqual(accounts.slice(0, PANEL_LIST_MAX))

    const payments = inRun.filter((row) => row.errors.some((e) => e.code === 'same_payment_again'))
    expect(panels.questions.payments.indexes).toEqual(payments.map((row) => row.index))
    expect(panels.questions.payments.rows).toHaveLength(PANEL_LIST_MAX)
    // The sum is exact: every amount of the sheet is "<n>.00"-style, summed in minor units.
    const cents = payments.reduce((sum, row) => sum + Math.round(Number(row.item.amount) * 100), 0)
    expect(panels.questions.payments.total).toBe((cents / 100).toFixed(2))

    const held = rows.filter(isHeld)
    expect(held.length).toBeGreaterThan(PANEL_LIST_MAX)
    expect(panels.held.count).toBe(held.length)
    expect(panels.held.accountChanged).toBe(held.length)
    expect(panels.held.rows).toEqual(held.slice(0, PANEL_LIST_MAX))
    expect(panels.flags.account_changed).toBe(rows.filter((row) => !row.excluded && row.tripwires).length)

    const left = rows.filter((row) => row.excluded)
    expect(panels.leftOut.count).toBe(left.length)
    expect(panels.leftOut.listed).toHaveLength(PANEL_LIST_MAX)

    const toAcknowledge = rows.filter(needsNameAcknowledgement)
    expect(panels.toAcknowledge.indexes).toEqual(toAcknowledge.map((row) => row.index))
    expect(panels.toAcknowledge.rows).toEqual(toAcknowledge.slice(0, REVIEW_LIST_MAX))
    // The review's figures are those of every row, as main shares them with the team.
    expect(panels.review).toEqual(reviewOfRun(view, rows))
  })

  it('answer the same size at 100,000 rows as at 2,300, but for the indexes an answer covers', () => {
    const small = JSON.stringify({ ...runPanelsOf(view, monthEnd()), toAcknowledge: null, questions: null })
    const rows = rowsFromImport(sheetOf(100_000))
    rows.forEach((row, i) => {
      row.resolution = 'mismatch'
      row.resolvedName = `BANK NAME ${i}`
    })
    const panels = runPanelsOf(view, rows)
    expect(panels.toAcknowledge.indexes).toHaveLength(100_000)
    expect(panels.toAcknowledge.rows).toHaveLength(REVIEW_LIST_MAX)
    expect(panels.review.names.noMatch).toBe(100_000)
    const big = JSON.stringify({ ...panels, toAcknowledge: null, questions: null })
    expect(big.length).toBeLessThan(2 * small.length)
  })

  it('main counts them a slice a turn, answering other calls meanwhile, to the same panels', async () => {
    const rows = rowsFromImport(sheetOf(4 * PANELS_SLICE + 10))
    rows.forEach((row, i) => {
      row.resolution = 'mismatch'
      row.resolvedName = `BANK NAME ${i}`
    })
    const { value: panels, turns } = await withTurnsCounted(() => runPanels(rows, () => view))
    expect(turns).toBeGreaterThanOrEqual(4)
    expect(panels).toEqual(runPanelsOf(view, rows))
  })

  it('the digest carries every row’s code and nothing else', async () => {
    const rows = monthEnd()
    expect(await rowsDigest(rows)).toEqual({ codes: rows.map(rowCode) })
  })

  it('main codes a large run a slice a turn, answering other calls meanwhile', async () => {
    const rows = rowsFromImport(sheetOf(3 * DIGEST_SLICE + 10))
    const { value: digest, turns } = await withTurnsCounted(() => rowsDigest(rows))
    expect(turns).toBeGreaterThanOrEqual(3)
    expect(digest).toEqual({ codes: rows.map(rowCode) })
  })
})
