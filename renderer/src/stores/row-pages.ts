/**
 * The pages of a run's rows the renderer holds whole (decision 154): the pages the
 * grid shows and those around them, read ahead of the scroll, at most PAGES_KEPT of them; the page
 * wanted longest ago goes first. Main holds every row: a page read again is read from main.
 *
 * Main tells which rows changed, not the rows (decision 175): a page held that holds one is stale,
 * and read again while the grid wants it (those it shows first); a page being read when told is read
 * once more when it comes, as it may have been answered before the change (decision 147). A row
 * read again whole (the run's open, decision 147) is put on its page as it comes.
 */
import type { RunRow } from '../../../shared/domain/bulk-run'

/** Rows to a page: a page parses in about a millisecond, and the grid's window is one or two. */
export const PAGE_ROWS = 250
/** Pages held: the window's and READ_AHEAD pages on each side, with room to scroll back. */
export const PAGES_KEPT = 24
/** Pages read beyond the window in the direction of the scroll (half as many the other way). */
export const READ_AHEAD = 6
/** Pages asked of main at once: the nearest first; more would only queue behind each other. */
export const READS_AT_ONCE = 2

export type ReadPage = (offset: number, limit: number) => Promise<RunRow[] | null>

export class RowPages {
  /** Page number -> its rows; in order of want, the least recently wanted first. */
  private readonly pages = new Map<number, RunRow[]>()
  /** Pages being read -> rows read again whole meanwhile, to put on the page when it arrives. */
  private readonly reading = new Map<number, Map<number, RunRow>>()
  /** Pages held or being read that a change told since their read began makes old: read again. */
  private readonly stale = new Set<number>()
  /** The pages the grid wants now, the nearest first (what `want` was last told). */
  private wanted: number[] = []
  private queue: number[] = []
  /** The pages of the rows the grid shows now: only their coming redraws it (not a page read ahead). */
  private shown = new Set<number>()
  private generation = 0
  private total = 0
  private lastFirst = 0

  constructor(
    private readonly readPage: ReadPage,
    /** A page of the rows shown came in: what shows them draws again. */
    private readonly onPage: () => void,
    private readonly capacity = PAGES_KEPT,
  ) {}

  /** Another run (or the same run read again): nothing held, nothing read for the last one kept. */
  reset(total: number): void {
    this.generation++
    this.pages.clear()
    this.reading.clear()
    this.stale.clear()
    this.wanted = []
    this.queue = []
    this.shown = new Set()
    this.total = total
    this.lastFirst = 0
  }

  get rowCount(): number {
    return this.total
  }

  /** The row at this index, when its page is held. */
  row(index: number): RunRow | undefined {
    return this.pages.get(Math.floor(index / PAGE_ROWS))?.[index % PAGE_ROWS]
  }

  /** The pages held, the least recently wanted first (for tests and figures). */
  held(): number[] {
    return [...this.pages.keys()]
  }

  /**
   * The grid shows these rows (indexes, in the order shown): their pages are kept, those missing
   * read, then the pages ahead of the scroll and behind it. Wanted pages move to the back of the
   * line of pages to drop.
   */
  want(indexes: readonly number[], aheadIndexes: readonly number[] = [], behindIndexes: readonly number[] = []): void {
    const order: number[] = []
    const seen = new Set<number>()
    const add = (index: number) => {
      const page = Math.floor(index / PAGE_ROWS)
      if (index < 0 || index >= this.total || seen.has(page) || order.length >= this.capacity - 1) return
      seen.add(page)
      order.push(page)
    }
    for (const index of indexes) add(index)
    this.shown = new Set(order)
    for (const index of aheadIndexes) add(index)
    for (const index of behindIndexes) add(index)
    // The nearest wanted last: the most recently wanted, kept longest.
    for (let i = order.length - 1; i >= 0; i--) {
      const rows = this.pages.get(order[i]!)
      if (rows) {
        this.pages.delete(order[i]!)
        this.pages.set(order[i]!, rows)
      }
    }
    this.wanted = order
    this.requeue()
  }

  /** The pages wanted that are missing or stale, in the order wanted, read as reads free up. */
  private requeue(): void {
    this.queue = this.wanted.filter(
      (page) => (!this.pages.has(page) || this.stale.has(page)) && !this.reading.has(page),
    )
    this.pump()
  }

  /**
   * The window's pages with READ_AHEAD pages ahead in the direction of the scroll and half as many
   * behind, for a grid showing every row (a row's position is its index).
   */
  wantAround(first: number, last: number): void {
    const down = first >= this.lastFirst
    this.lastFirst = first
    const span = (from: number, pages: number, step: number) =>
      Array.from({ length: pages }, (_, i) => from + step * (i + 1) * PAGE_ROWS)
    const ahead = span(down ? last : first, READ_AHEAD, down ? 1 : -1)
    const behind = span(down ? first : last, Math.ceil(READ_AHEAD / 2), down ? -1 : 1)
    const shown: number[] = []
    for (let index = first; index <= last; index += PAGE_ROWS) shown.push(index)
    shown.push(last)
    this.want(shown, ahead, behind)
  }

  /**
   * Rows main told changed, by index: the pages holding them are stale, read again while wanted
   * (the shown ones first, as `want` orders them); a page being read is read once more after.
   */
  changed(indexes: readonly number[]): void {
    let last = -1
    let any = false
    for (const index of indexes) {
      const page = Math.floor(index / PAGE_ROWS)
      if (page === last) continue
      last = page
      if (this.pages.has(page) || this.reading.has(page)) {
        this.stale.add(page)
        any = true
      }
    }
    if (any) this.requeue()
  }

  /** Rows read again whole: put on the pages held, and on pages being read. */
  put(rows: readonly RunRow[]): void {
    for (const row of rows) {
      const page = Math.floor(row.index / PAGE_ROWS)
      const held = this.pages.get(page)
      if (held && held[row.index % PAGE_ROWS]?.index === row.index) held[row.index % PAGE_ROWS] = row
      this.reading.get(page)?.set(row.index, row)
    }
  }

  /**
   * These rows whole, whether held or not (a range edited beyond the pages held): read from main
   * page by page, not kept beyond the pages the grid wants. Undefined for a row main has not.
   */
  async rowsAt(indexes: readonly number[]): Promise<(RunRow | undefined)[]> {
    const got = new Map<number, RunRow[] | null>()
    for (const index of indexes) {
      const page = Math.floor(index / PAGE_ROWS)
      if (got.has(page)) continue
      const held = this.stale.has(page) ? undefined : this.pages.get(page)
      got.set(page, held ?? (await this.readPage(page * PAGE_ROWS, PAGE_ROWS)))
    }
    return indexes.map((index) => got.get(Math.floor(index / PAGE_ROWS))?.[index % PAGE_ROWS])
  }

  private pump(): void {
    while (this.reading.size < READS_AT_ONCE && this.queue.length > 0) void this.read(this.queue.shift()!)
  }

  private async read(page: number): Promise<void> {
    const generation = this.generation
    const told = new Map<number, RunRow>()
    this.reading.set(page, told)
    // A change told from here on may be after main's answer: it marks the page stale again.
    this.stale.delete(page)
    let rows: RunRow[] | null = null
    try {
      rows = await this.readPage(page * PAGE_ROWS, PAGE_ROWS)
    } finally {
      if (generation === this.generation) this.reading.delete(page)
    }
    if (generation !== this.generation) return
    if (rows) {
      for (const [index, row] of told) if (rows[index % PAGE_ROWS]?.index === index) rows[index % PAGE_ROWS] = row
      this.pages.delete(page)
      this.pages.set(page, rows)
      while (this.pages.size > this.capacity) {
        const dropped = this.pages.keys().next().value!
        this.pages.delete(dropped)
        this.stale.delete(dropped)
      }
      if (this.shown.has(page)) this.onPage()
      // Told changed while it was read: read once more (a failed read waits for the next want).
      if (this.stale.has(page)) return this.requeue()
    } else if (!this.pages.has(page)) this.stale.delete(page)
    this.pump()
  }
}
