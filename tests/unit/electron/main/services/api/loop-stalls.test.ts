/** The stall meter (electron/main/services/api/loop-stalls.ts) on the real event loop (decision 158). */
import { expect, it } from 'vitest'
import { LoopStalls } from '../../../../../../electron/main/services/api/loop-stalls'

const pause = (ms: number) => new Promise((done) => setTimeout(done, ms))

it('counts the time the event loop was held while it is held, and runs no timer once released', async () => {
  const stalls = new LoopStalls()
  stalls.hold()
  await pause(30)
  const before = stalls.total()
  // Main held for 200 ms (a run's rows serialised, say): an answer read now was read that late.
  const until = performance.now() + 200
  while (performance.now() < until) {
    /* held */
  }
  // Counted at once, before the meter's own timer has had its turn...
  expect(stalls.total() - before).toBeGreaterThanOrEqual(150)
  await pause(30)
  // ...and kept once it has.
  expect(stalls.total() - before).toBeGreaterThanOrEqual(150)
  stalls.release()
  const released = stalls.total()
  const untilAgain = performance.now() + 100
  while (performance.now() < untilAgain) {
    /* held, but nobody holds the meter */
  }
  expect(stalls.total()).toBe(released)
})
