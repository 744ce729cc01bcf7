/**
 * A read that never overlaps itself, so what it puts on screen is never older than what was asked
 * last. Main answers two reads at once on two pooled connections, in either order: a read asked
 * before a change can answer after the read asked because of it, and put the older state back on
 * screen with nothing left to correct it. Asked while a read is in flight, it reads once more when
 * that one ends (however often it was asked meanwhile), and every caller's promise settles after the
 * read that began after its ask.
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
