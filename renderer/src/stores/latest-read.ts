/**
 * A read of main's state that events ask for again, that never overlaps itself, so what it puts on
 * screen is never older than what was asked last (decision 172). Two reads in flight can answer in
 * either order (the team's reads run on two pooled connections): a read asked before a change can
 * answer after the read asked because of it, and put the older state back on screen with nothing
 * left to correct it. Asked while a read is in flight, it reads once more when that one ends
 * (however often it was asked meanwhile), and every caller's promise settles after the read that
 * began after its ask. The team's runs and payouts, a run's team panel and the reconciliation's
 * view read this way.
 */
export function latestRead(read: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | null = null
  let again = false
  return () => {
    if (running) {
      again = true
      return running
    }
    running = (async () => {
      do {
        again = false
        await read()
      } while (again)
    })().finally(() => (running = null))
    return running
  }
}
