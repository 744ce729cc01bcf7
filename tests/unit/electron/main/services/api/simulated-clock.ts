/**
 * Time that moves only when every request in flight is waiting on it: the pace's tests run
 * thousands of requests against a rate limit in seconds of CPU, with exact timings.
 */
export class SimulatedClock {
  time = 0
  private timers: Array<{ at: number; order: number; wake: () => void }> = []
  private order = 0
  now = (): number => this.time
  sleep = (ms: number): Promise<void> =>
    new Promise((wake) => this.timers.push({ at: this.time + Math.max(0, ms), order: this.order++, wake }))

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
