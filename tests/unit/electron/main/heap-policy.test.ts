/**
 * Main's heap policy: with it, V8 collects when the old generation is one and a half times what is
 * live (decision 167; twice before), where by default it lets the heap grow to about four times
 * (what took main to 1.2 GB at 100,000 rows).
 * Measured in child processes (a fresh V8 each): a live set held, then garbage made at a steady
 * rate, and the highest heap seen against what is live at the end.
 */
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = join(__dirname, '..', '..', '..', '..')

const CHURN = `
  const ROUNDS = 6000
  const live = []
  for (let i = 0; i < 1000000; i++) live.push({ text: 'row ' + i, amount: i * 1.5, item: { name: 'n' + i } })
  let peak = 0
  let kept = []
  // A fixed amount of work (not a time), so a busy machine goes through the same collections.
  for (let round = 0; round < ROUNDS; round++) {
    for (let k = 0; k < 2000; k++) kept.push({ s: 'x' + Math.random(), n: [1, 2, 3] })
    if (kept.length > 200000) kept = []
    peak = Math.max(peak, process.memoryUsage().heapUsed)
  }
  kept = []
  globalThis.gc()
  const after = process.memoryUsage().heapUsed
  process.stdout.write(JSON.stringify({ ratio: peak / after, live: live.length }))
`

function peakOverLive(withPolicy: boolean): number {
  const script = withPolicy
    ? `require(${JSON.stringify(join(ROOT, 'electron/main/heap-policy.ts'))}).keepHeapSmall();${CHURN}`
    : CHURN
  const out = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', '-e', script], {
    cwd: ROOT,
    encoding: 'utf8',
  })
  return (JSON.parse(out) as { ratio: number }).ratio
}

describe('main heap policy', () => {
  it('keeps the heap near one and a half times what is live, where V8 alone lets it grow to four or five times', () => {
    const alone = peakOverLive(false)
    const kept = peakOverLive(true)
    // Measured here: alone 4.8 to 5.7; with the policy 1.96 (its factor 1.5, plus the young
    // generation), where a factor 2 (decision 46) measured 2.5 to 2.9.
    expect(kept, `with the policy ${kept.toFixed(2)}x`).toBeLessThan(2.4)
    expect(kept, `with the policy ${kept.toFixed(2)}x, alone ${alone.toFixed(2)}x`).toBeLessThan(alone * 0.75)
    // The limit only catches a hang: the measure is a fixed amount of work, not a time, and two
    // fresh V8s under a loaded CI machine (2 cores shared with other test files) take up to a minute.
  }, 180_000)
})
