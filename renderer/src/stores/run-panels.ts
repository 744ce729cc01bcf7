/**
 * What the open run's panels list, as main says it (`bulk:panels`, shared/bulk/run-panels.ts,
 * decision 171): read with the run, and again as main tells its rows or its view changed. At most
 * one read is under way; changes told meanwhile ask for one more, a gap after it that grows with
 * the run (a 100,000-row run being checked reads them about once a second, not once an event).
 */
import { shallowRef } from 'vue'
import type { RunPanels } from '../../../shared/bulk/run-panels'

/** The least time between two reads, and what each 1,000 rows of the run add to it. */
export const PANELS_GAP_MS = 200
export const PANELS_GAP_PER_THOUSAND_ROWS_MS = 10

export type ReadPanels = (runId: string) => Promise<RunPanels | null>

/**
 * `shown`: whether the run shows any panel now (a run being sent or followed shows none, and its
 * rows change by the thousand): changes told while it shows none read nothing.
 */
export function useRunPanels(read: ReadPanels, shown: () => boolean = () => true) {
  const panels = shallowRef<RunPanels | null>(null)
  /** The run followed, and how many rows it has (the gap between reads grows with it). */
  let runId: string | null = null
  let rows = 0
  let reading: Promise<void> | null = null
  let again = false
  /** Reads are numbered: an answer older than the one shown is dropped (a read asked now can pass one under way). */
  let asked = 0
  let shownTicket = 0
  let timer: ReturnType<typeof setTimeout> | null = null

  const gapMs = (): number => PANELS_GAP_MS + Math.floor(rows / 1000) * PANELS_GAP_PER_THOUSAND_ROWS_MS

  /** Follows another run (null: none), with its panels read already (or null until read). */
  function follow(id: string | null, rowCount: number, first: RunPanels | null): void {
    runId = id
    rows = rowCount
    panels.value = first
    // A read asked before (of this run reopened, or of the last one) is older than `first`.
    shownTicket = asked
    again = false
    if (timer) clearTimeout(timer)
    timer = null
  }

  /** Main told the run's rows or view changed: its panels are read again, now or after the gap. */
  function changed(): void {
    if (!runId || !shown()) return
    if (reading || timer) {
      again = true
      return
    }
    reading = readNow(runId)
  }

  /** One read, shown when it is the latest answered of the run followed. */
  async function readOnce(id: string): Promise<void> {
    const ticket = ++asked
    const next = await read(id)
    if (next && id === runId && ticket > shownTicket) {
      shownTicket = ticket
      panels.value = next
    }
  }

  async function readNow(id: string): Promise<void> {
    try {
      await readOnce(id)
    } finally {
      reading = null
      // Changes told meanwhile are read for the run followed now (another may have opened).
      if (again && runId !== null) {
        again = false
        timer = setTimeout(() => {
          timer = null
          changed()
        }, gapMs())
      }
    }
  }

  /**
   * Reads them now, whatever is under way, and settles once they are shown: the run's stage changed
   * (its review opens), and what it lists must be the rows as main has them, not a read made before
   * the last names came back.
   */
  async function now(): Promise<void> {
    if (runId) await readOnce(runId)
  }

  /** Settles once no read is under way or waiting (tests and the benchmark wait for it). */
  async function settled(): Promise<void> {
    while (reading || timer) await (reading ?? new Promise((resolve) => setTimeout(resolve, gapMs())))
  }

  return { panels, follow, changed, now, settled }
}
