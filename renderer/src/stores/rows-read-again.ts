/**
 * The rows main said changed while the desk was reading a run's rows (decision 147). A page read
 * can be older than a change told meanwhile: main answered the page, then changed a row (a payee
 * check landing, a name check answering) and told it, and the telling arrived first (the bridge's
 * calls and its event stream are two connections; a page asked for before a change can be answered
 * after the change is told). Put in place, that row was overwritten by the older page, or dropped
 * while the run was not open yet. So the rows changed during a read are read again once it ends,
 * until a read ends with no change told during it (at most MAX_ROUNDS: after that the rows are read
 * together with main's telling, which then arrives in order with nothing older in flight).
 */
/** Rounds of reading again after the run's pages are in. */
export const MAX_ROUNDS = 5
/** Changed rows this close together are read in one span (one call rather than many small ones). */
export const SPAN_GAP = 200

export interface RowSpan {
  offset: number
  limit: number
}

export class RowsChangedWhileReading {
  private runId: string | null = null
  private readonly indexes = new Set<number>()

  /** A read of this run's rows begins: changes told from now on are noted. */
  begin(runId: string): void {
    this.runId = runId
    this.indexes.clear()
  }

  /** Main told the rows at these indexes changed. */
  note(runId: string, indexes: readonly number[]): void {
    if (runId !== this.runId) return
    for (const index of indexes) this.indexes.add(index)
  }

  reading(runId: string): boolean {
    return this.runId === runId
  }

  /** The rows noted so far as spans to read again (nearby rows together); the notes are emptied. */
  take(): RowSpan[] {
    const sorted = [...this.indexes].sort((a, b) => a - b)
    this.indexes.clear()
    const spans: RowSpan[] = []
    for (const index of sorted) {
      const last = spans.at(-1)
      if (last && index - (last.offset + last.limit) < SPAN_GAP) last.limit = index - last.offset + 1
      else spans.push({ offset: index, limit: 1 })
    }
    return spans
  }

  end(): void {
    this.runId = null
    this.indexes.clear()
  }
}
