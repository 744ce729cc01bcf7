/**
 * Main's V8 heap is kept small rather than fast to grow (decision 46). By default V8 lets the old
 * generation grow to about four times what is live before it collects (its growing factor on a
 * machine with memory to spare): a 100,000-row run holds some 150 MB, so main peaked at 1.2 GB.
 * `--optimize-for-size` makes V8 collect at about 1.3 times what is live instead, for more, shorter
 * collections. Set at run time (`--js-flags` reaches Electron's main process only on its command
 * line); V8 reads this flag each time it sets its next limit.
 */
import { setFlagsFromString } from 'node:v8'

let applied = false

export function keepHeapSmall(): void {
  if (applied) return
  applied = true
  setFlagsFromString('--heap-growing-percent=100')
}
