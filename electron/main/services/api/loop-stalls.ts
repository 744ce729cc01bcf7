/**
 * How long this process's event loop was held while requests were in flight (decision 158): by
 * main's own work (a run's rows saved, a sheet read) or by a computer too busy to give it a core.
 * An answer that arrived during such a stall is read late, so its latency looks longer than the
 * service took; the pace does not judge the service by it, so it cuts back for a service that
 * queues, not for a desk that was busy (cutting then only slows the run and frees nothing).
 *
 * A timer every `tickMs` notes how late it fired; it runs only while someone holds the meter (the
 * pace holds it while any request is in flight), so an idle app has no timer.
 */
/** What the pace reads of a stall meter (a test gives its own). */
export interface StallMeter {
  total(): number
  hold(): void
  release(): void
}

/** A timer this late or less is its own jitter, not a stall. */
const JITTER_MS = 5

export class LoopStalls implements StallMeter {
  private held = 0
  private expected = 0
  private timer: ReturnType<typeof setInterval> | null = null
  private holders = 0

  constructor(
    private readonly tickMs = 10,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  /** Milliseconds the loop was late since the meter began, counting a stall that is ending now. */
  total(): number {
    if (this.timer === null) return this.held
    return this.held + lateness(this.clock() - this.expected)
  }

  hold(): void {
    if (this.holders++ > 0) return
    this.expected = this.clock() + this.tickMs
    this.timer = setInterval(() => this.tick(), this.tickMs)
    this.timer.unref?.()
  }

  release(): void {
    if (this.holders === 0 || --this.holders > 0) return
    this.tick()
    if (this.timer) clearInterval(this.timer)
    this.timer = null
  }

  private tick(): void {
    const now = this.clock()
    this.held += lateness(now - this.expected)
    this.expected = now + this.tickMs
  }
}

function lateness(late: number): number {
  return late > JITTER_MS ? late : 0
}

/** The process's one meter: one event loop, whichever pace asks. */
export const processLoopStalls = new LoopStalls()
