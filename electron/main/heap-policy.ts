/**
 * Main's V8 heap is kept small rather than fast to grow (decision 46). By default V8 lets the old
 * generation grow to about four times what is live before it collects (its growing factor on a
 * machine with memory to spare): a 100,000-row run holds some 150 MB, so main peaked at 1.2 GB.
 * `--heap-growing-percent=100` made V8 collect at about twice what is live instead, with the same
 * CPU (`--optimize-for-size` got closer but doubled main's CPU; a hard `--max-old-space-size`
 * would crash a desk holding several large runs). Decision 167: 50, at one and a half times, so a
 * 100,000-row run (some 1.2 KB a row live) keeps main under 600 MB beside its workers.
 * Set at run time (`--js-flags` reaches Electron's main process only on its command
 * line); V8 reads this flag each time it sets its next limit.
 */
import { setFlagsFromString } from 'node:v8'

/** How far past what is live the old generation grows before V8 collects it (decision 167). */
export const HEAP_GROWING_PERCENT = 50

let applied = false

export function keepHeapSmall(): void {
  if (applied) return
  applied = true
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`)
}
