/**
 * The pages of a run's rows the renderer holds (decision 154): the grid's window and the pages
 * ahead of the scroll are read from main, at most PAGES_KEPT are held (the page wanted longest ago
 * goes first), and a page holding a row main told changed is read again, once more when told
 * while it was read (decision 175), so the row ends as main has it.
 */
import { describe, expect, it } from 'vitest'
import type { RunRow } from '../../../shared/domain/bulk-run'
import { PAGE_ROWS, PAGES_KEPT, READ_AHEAD, READS_AT_ONCE, RowPages } from '../../../renderer/src/stores/row-pages'

const TOTAL = 100_000

function row(index: number, status: RunRow['status'] = 'not_sent'): RunRow {
  return { index, item: { row: index + 2 }, excluded: false, errors: [], warnings: [], status } as unknown as RunRow
}

/** Main, answering the pages asked when told to; what was asked, in order. */
function fakeMain() {
  const asked: Array<{ page: number; answer: (rows?: RunRow[]) => void }> = []
  const read = (offset: number, limit: number) =>
    new Promise<RunRow[] | null>((resolve) =>
      asked.push({
        page: offset / PAGE_ROWS,
        answer: (rows) =>
          resolve(
            rows ?? Array.from({ length: Math.max(0, Math.min(limit, TOTAL - offset)) }, (_, i) => row(offset + i)),
          ),
      }),
    )
  return { asked, read }
}

const settle = async (): Promise<void> => {
  for (let i = 0; i < 20; i++) await Promise.resolve()
}

/** Answers what is asked until nothing more is: the pages read, in order. */
async function answerAll(main: ReturnType<typeof fakeMain>): Promise<number[]> {
  const pages: number[] = []
  while (main.asked.length > 0) {
    const next = main.asked.shift()!
    pages.push(next.page)
    next.answer()
    await settle()
  }
  return pages
}

describe('the pages of rows the renderer holds', () => {
  it('reads the window first, then the pages ahead of a scroll down, then some behind', async () => {
    const main = fakeMain()
    let drawn = 0
    const pages = new RowPages(main.read, () => drawn++)
    pages.reset(TOTAL)
    pages.wantAround(10_000, 10_030)
    // Never more than READS_AT_ONCE asked of main at once: the window's page first.
    expect(main.asked.map((a) => a.page)).toEqual([40, 41].slice(0, READS_AT_ONCE))
    const read = await answerAll(main)
    expect(read.slice(0, 1 + READ_AHEAD)).toEqual([40, 41, 42, 43, 44, 45, 46])
    expect(read.slice(1 + READ_AHEAD)).toEqual([39, 38, 37])
    // Only the window's page redraws the grid: a page read ahead comes unseen.
    expect(drawn).toBe(1)
    expect(pages.row(10_000)?.index).toBe(10_000)
    expect(pages.row(11_700)?.index).toBe(11_700)
    expect(pages.row(8_000)).toBeUndefined()
  })

  it('reads ahead upwards when the scroll goes up', async () => {
    const main = fakeMain()
    const pages = new RowPages(main.read, () => undefined)
    pages.reset(TOTAL)
    pages.wantAround(50_000, 50_030)
    await answerAll(main)
    pages.wantAround(49_000, 49_030)
    const read = await answerAll(main)
    // 196 is the window's page; the six above it are read next, and those below are held already.
    expect(read).toEqual([196, 195, 194, 193, 192, 191, 190])
  })

  it('holds at most PAGES_KEPT pages, dropping those wanted longest ago, not the window', async () => {
    const main = fakeMain()
    const pages = new RowPages(main.read, () => undefined)
    pages.reset(TOTAL)
    for (let first = 0; first < 60_000; first += 1_000) {
      pages.wantAround(first, first + 30)
      await answerAll(main)
      expect(pages.held().length).toBeLessThanOrEqual(PAGES_KEPT)
      expect(pages.row(first)?.index).toBe(first)
    }
    // Scrolled far down: the first pages were dropped, and are read again when scrolled back to.
    expect(pages.row(0)).toBeUndefined()
    pages.wantAround(0, 30)
    expect(main.asked[0]?.page).toBe(0)
    await answerAll(main)
    expect(pages.row(0)?.index).toBe(0)
  })

  it('reads a page again when main tells a row of it changed, and once more when told while it was read', async () => {
    const main = fakeMain()
    let drawn = 0
    const pages = new RowPages(main.read, () => drawn++)
    pages.reset(TOTAL)
    pages.wantAround(0, 30)
    const first = main.asked.shift()!
    expect(first.page).toBe(0)
    // Main answered page 0, then row 7 was paid and told (by index, decision 175): the telling
    // arrives first, the older page after it.
    pages.changed([7])
    first.answer()
    await settle()
    const again = main.asked.findIndex((asked) => asked.page === 0)
    expect(again).toBeGreaterThanOrEqual(0)
    main.asked
      .splice(again, 1)[0]!
      .answer(Array.from({ length: PAGE_ROWS }, (_, i) => row(i, i === 7 ? 'success' : 'not_sent')))
    await settle()
    expect(pages.row(7)?.status).toBe('success')
    await answerAll(main)
    // A change told once the page is held: the page shown is read again at once, and drawn.
    const before = drawn
    pages.changed([8, 9, 240])
    expect(main.asked.map((asked) => asked.page)).toEqual([0])
    main.asked.shift()!.answer(Array.from({ length: PAGE_ROWS }, (_, i) => row(i, i === 8 ? 'failed' : 'not_sent')))
    await settle()
    expect(pages.row(8)?.status).toBe('failed')
    expect(drawn).toBe(before + 1)
    // A row of a page neither held nor read reads nothing.
    pages.changed([90_000])
    expect(main.asked).toEqual([])
  })

  it('reads a stale page held but no longer wanted only when it is wanted again, and never answers a range from it', async () => {
    const main = fakeMain()
    const pages = new RowPages(main.read, () => undefined)
    pages.reset(TOTAL)
    pages.wantAround(0, 30)
    await answerAll(main)
    pages.wantAround(5_000, 5_030)
    await answerAll(main)
    expect(pages.held()).toContain(0)
    pages.changed([3])
    // Page 0 is held but not wanted: nothing is read for it now.
    expect(main.asked).toEqual([])
    // A range that takes in row 3 reads its page from main, not the stale page held.
    const reading = pages.rowsAt([3])
    await settle()
    expect(main.asked.map((asked) => asked.page)).toEqual([0])
    main.asked.shift()!.answer(Array.from({ length: PAGE_ROWS }, (_, i) => row(i, i === 3 ? 'success' : 'not_sent')))
    expect((await reading)[0]?.status).toBe('success')
    // Scrolled back: the stale page is read again before the grid uses it.
    pages.wantAround(0, 30)
    expect(main.asked[0]?.page).toBe(0)
    main.asked.shift()!.answer(Array.from({ length: PAGE_ROWS }, (_, i) => row(i, i === 3 ? 'success' : 'not_sent')))
    await settle()
    expect(pages.row(3)?.status).toBe('success')
  })

  it('puts a row read again whole on its page held, and on its page being read when it comes', async () => {
    const main = fakeMain()
    const pages = new RowPages(main.read, () => undefined)
    pages.reset(TOTAL)
    pages.wantAround(0, 30)
    const first = main.asked.shift()!
    pages.put([row(7, 'success')])
    first.answer()
    await settle()
    expect(pages.row(7)?.status).toBe('success')
    pages.put([row(8, 'failed')])
    expect(pages.row(8)?.status).toBe('failed')
  })

  it('drops a page that comes for a run no longer open', async () => {
    const main = fakeMain()
    const pages = new RowPages(main.read, () => undefined)
    pages.reset(TOTAL)
    pages.wantAround(0, 30)
    const late = main.asked.shift()!
    pages.reset(500)
    late.answer()
    await settle()
    expect(pages.row(0)).toBeUndefined()
    expect(pages.held()).toEqual([])
  })

  it('reads rows of a range beyond the pages held (a fill down of 2,000 rows), without holding them', async () => {
    const main = fakeMain()
    const pages = new RowPages(main.read, () => undefined)
    pages.reset(TOTAL)
    const indexes = Array.from({ length: 2_000 }, (_, i) => 90_000 + i)
    const reading = pages.rowsAt(indexes)
    // Read a page at a time: eight pages of 250 rows.
    for (let page = 0; page < 8; page++) {
      await settle()
      main.asked.shift()!.answer()
    }
    const rows = await reading
    expect(rows.map((r) => r?.index)).toEqual(indexes)
    expect(pages.held()).toEqual([])
  })
})
