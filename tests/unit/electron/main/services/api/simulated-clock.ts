/**
 * Time that moves only when every request in flight is waiting on it: the pace's tests run
 * thousands of requests against a rate limit in seconds of CPU, with exact timings.
 */
export class SimulatedClock {
  time = 0
  private timers: Array<{ at: number; order: number; wake: () => void }> = []
  private order = 0
  now = (): number => this.time
  sleep = (ms: number): Promise<void> => this.sleepUntil(this.time + Math.max(0, ms))
  protected sleepUntil(at: number): Promise<void> {
    return new Promise((wake) => this.timers.push({ at, order: this.order++, wake }))
  }

  /** Runs until `work` settles: lets every promise chain run, then jumps to the next timer. */
  async runUntil<T>(work: Promise<T>): Promise<T> {
    let settled = false
    const result = work.finally(() => (settled = true))
    for (;;) {
      for (let i = 0; i < 4; i++) await new Promise((done) => setImmediate(done))
      if (settled) return result
      this.timers.sort((a, b) => a.at - b.at || a.order - b.order)
      const next = this.timers.shift()
      if (!next) throw new Error('deadlock: nothing in flight and nothing waiting on the clock')
      this.time = Math.max(this.time, next.at)
      next.wake()
    }
  }
}

/**
 * The same time read and slept on as Node's are (decision 180): `now` counts whole milliseconds of
 * the wall clock (`Date.now()`), half a millisecond out of step with the loop's own clock, and a
 * timer fires on a whole millisecond of the loop's clock, `ceil(ms)` after the one it was set on:
 * up to a millisecond before `ms` has passed, or after, as `now` reads it.
 */
export class WholeMillisecondClock extends SimulatedClock {
  override now = (): number => Math.floor(this.time + 0.5)
  override sleep = (ms: number): Promise<void> => this.sleepUntil(Math.floor(this.time) + Math.ceil(Math.max(0, ms)))
}
