/**
 * How many requests to one payments service may be in flight at once, learnt from its answers
 * (decision 112): it starts where the desk's fixed lanes start, grows while latency stays near the
 * lowest seen and no 429 comes, cuts back on a 429 (by half) or a latency rise (by a fifth), and
 * never passes a ceiling a setting can lower. A 429's Retry-After pauses every request to that
 * service once, together, instead of each lane waiting out its own. One pace per profile (one
 * service host): name checks, submission and monitoring share it. Growth is TCP's: doubling per
 * round trip until the first cut ("slow start"), then one more request per round trip.
 *
 * A rate limit does not show in latency: a service that meters requests a second answers fast
 * until it answers 429. So a 429 also teaches a rate: requests then leave no faster than the rate
 * the service was answering when it refused (slightly less), and that rate is probed upwards by
 * about 2% a second, so a limit that rises is found again and a limit that holds is met rarely.
 *
 * The pace decides when a request may leave; it never decides whether one is sent again. A write
 * refused with 429 goes back through the one failure policy (sending/send-policy.ts) as "not
 * carried out", sent again with the same reference.
 */

export interface PaceSample {
  /** From leaving to the answer. */
  latencyMs: number
  /** The service answered 429: it took nothing. */
  rateLimited?: boolean
  /** Its Retry-After, when it gave one. */
  retryAfterMs?: number
}

export interface PaceOptions {
  /**
   * Requests in flight at first. Default 16: the desk's fixed lanes before it adapted (8 name
   * checks, 4 batches sent, 4 followed) all fit, so nothing starts slower than it used to.
   */
  start?: number
  /** Never more than this in flight. Default 32; a setting can lower it. */
  ceiling?: number
  /** Never fewer. Default 1. */
  floor?: number
  /** A 429 without Retry-After pauses everyone this long. Default 1,000 ms. */
  defaultPauseMs?: number
  now?: () => number
  sleep?: (ms: number) => Promise<void>
}

export interface PaceView {
  /** Requests allowed in flight now. */
  limit: number
  ceiling: number
  /** Answers a second over the last five seconds. */
  perSecond: number
  /** The lowest latency seen lately, the pace's "near its floor". */
  floorLatencyMs: number | null
  /** Until when every request waits out a Retry-After (epoch ms), if it does. */
  pausedUntil: number | null
  /** 429s met since the pace began. */
  rateLimited: number
  /** Requests a second the service was found to take (from its 429s), or null. */
  learntRate: number | null
}

/** A smoothed latency this far above the floor still counts as "flat". */
const FLAT = 1.25
/** A smoothed latency this far above the floor is a rise: the service is queueing. */
const RISE = 1.6
/**
 * And by at least this much (ms): a service answering in 2 ms that answers in 5 ms under a busy
 * computer is not queueing; a queue shows in tens of milliseconds.
 */
const RISE_SLACK_MS = 25
const FLAT_SLACK_MS = 10
/** Weight of the newest answer in the smoothed latency (jitter of single answers is not a rise). */
const SMOOTHING = 0.2
/** Answers a rate is measured over. */
const WINDOW_MS = 5_000
/** The floor follows a network that changed: the lowest latency of this long ago or since. */
const FLOOR_WINDOW_MS = 30_000
/** After a 429, requests leave at this share of the rate the service was answering. */
const RATE_MARGIN = 0.97
/** The learnt rate is probed upwards by this share per answer (about 2% a second at 40 a second). */
const RATE_PROBE = 0.0005

export class AdaptivePace {
  private limit: number
  private ceilingValue: number
  private readonly floorValue: number
  private readonly defaultPauseMs: number
  private readonly now: () => number
  private readonly sleep: (ms: number) => Promise<void>
  private inFlight = 0
  private readonly waiting: Array<() => void> = []
  private pausedUntil = 0
  private slowStart = true
  private lastCutAt = Number.NEGATIVE_INFINITY
  /** The lowest latency of each second lately (second, lowest), for the floor. */
  private lowestBySecond: Array<{ second: number; latencyMs: number }> = []
  private floorLatency: number | null = null
  private readonly answeredAt: number[] = []
  private readonly servedAt: number[] = []
  private limitedCount = 0
  private smoothedLatency: number | null = null
  private answers = 0
  /** After a change of limit, answers to wait for before judging latency again (one round). */
  private judgeFrom = 0
  /** Requests a second learnt from a 429, or null while none came. */
  private rate: number | null = null
  private nextStartAt = 0

  constructor(options: PaceOptions = {}) {
    this.ceilingValue = Math.max(1, Math.floor(options.ceiling ?? 32))
    this.floorValue = Math.max(1, Math.min(this.ceilingValue, Math.floor(options.floor ?? 1)))
    this.limit = Math.max(this.floorValue, Math.min(this.ceilingValue, options.start ?? 16))
    this.defaultPauseMs = options.defaultPauseMs ?? 1_000
    this.now = options.now ?? Date.now
    this.sleep = options.sleep ?? ((ms) => new Promise((done) => setTimeout(done, ms)))
  }

  /** Lowers (or raises, up to what was built in) the ceiling: the setting "at most N at once". */
  setCeiling(ceiling: number): void {
    this.ceilingValue = Math.max(this.floorValue, Math.floor(ceiling))
    this.limit = Math.min(this.limit, this.ceilingValue)
  }

  /**
   * Waits for a place (and out any pause), then holds it until `done` is called with the answer's
   * sample. Every request to the service goes through here, so none leaves during a pause.
   */
  async begin(): Promise<(sample: PaceSample) => void> {
    for (;;) {
      const now = this.now()
      if (now < this.pausedUntil) {
        await this.sleep(this.pausedUntil - now)
        continue
      }
      if (this.inFlight >= Math.floor(this.limit)) {
        await new Promise<void>((wake) => this.waiting.push(wake))
        continue
      }
      if (this.rate !== null && now < this.nextStartAt) {
        await this.sleep(this.nextStartAt - now)
        continue
      }
      break
    }
    if (this.rate !== null) this.nextStartAt = Math.max(this.now(), this.nextStartAt) + 1000 / this.rate
    this.inFlight++
    let finished = false
    return (sample) => {
      if (finished) return
      finished = true
      this.inFlight--
      this.learn(sample)
      this.wake()
    }
  }

  /** Runs one request within the pace, timing it; a 429 is told by `isRateLimited`. */
  async run<T>(
    request: () => Promise<T>,
    rateLimitOf: (error: unknown) => { retryAfterMs?: number } | null,
  ): Promise<T> {
    const done = await this.begin()
    const started = this.now()
    try {
      const result = await request()
      done({ latencyMs: this.now() - started })
      return result
    } catch (error) {
      const limited = rateLimitOf(error)
      done({
        latencyMs: this.now() - started,
        ...(limited ? { rateLimited: true, ...limited } : {}),
      })
      throw error
    }
  }

  view(): PaceView {
    this.forgetOldAnswers()
    return {
      limit: Math.floor(this.limit),
      ceiling: this.ceilingValue,
      perSecond: this.answeredAt.length / (WINDOW_MS / 1000),
      learntRate: this.rate,
      floorLatencyMs: this.floorLatency,
      pausedUntil: this.pausedUntil > this.now() ? this.pausedUntil : null,
      rateLimited: this.limitedCount,
    }
  }

  private learn(sample: PaceSample): void {
    const now = this.now()
    this.answeredAt.push(now)
    this.forgetOldAnswers()
    if (sample.rateLimited) {
      this.limitedCount++
      // One pause for everyone: a second 429 inside it extends nothing it already covers.
      this.pausedUntil = Math.max(this.pausedUntil, now + (sample.retryAfterMs ?? this.defaultPauseMs))
      // A 429 that came before any answer was served teaches no rate; a later one still can.
      if (this.cut(0.5, now) || this.rate === null) this.learnRate()
      return
    }
    this.servedAt.push(now)
    this.answers++
    if (this.rate !== null) this.rate *= 1 + RATE_PROBE
    this.noteLatency(sample.latencyMs, now)
    const floor = this.floorLatency ?? sample.latencyMs
    const smoothed = (this.smoothedLatency =
      this.smoothedLatency === null
        ? sample.latencyMs
        : this.smoothedLatency + SMOOTHING * (sample.latencyMs - this.smoothedLatency))
    // Slow start ends at the first answer that was not flat: doubling on a lagging average would
    // overshoot a queue by a round trip's worth.
    if (this.slowStart && sample.latencyMs > floor * FLAT + FLAT_SLACK_MS) this.slowStart = false
    if (this.answers < this.judgeFrom) return
    if (smoothed > floor * RISE + RISE_SLACK_MS) {
      if (this.cut(0.8, now)) {
        // The answers still in flight were sent at the old limit: judge again once they are back.
        this.judgeFrom = this.answers + Math.ceil(this.limit / 0.8)
        this.smoothedLatency = floor * FLAT
      }
    } else if (smoothed <= floor * FLAT + FLAT_SLACK_MS) this.grow()
  }

  /** At most one cut per round trip: the answers of one crowded moment are one signal, not many. */
  private cut(factor: number, now: number): boolean {
    this.slowStart = false
    const round = Math.max(this.floorLatency ?? 0, 50)
    if (now - this.lastCutAt < round) return false
    this.lastCutAt = now
    this.limit = Math.max(this.floorValue, this.limit * factor)
    return true
  }

  /** The rate the service was serving when it refused: what it takes, less a margin. */
  private learnRate(): void {
    this.forgetOldAnswers()
    const first = this.servedAt[0]
    const span = first === undefined ? WINDOW_MS : Math.max(1_000, this.now() - first)
    const served = this.servedAt.length / (span / 1000)
    const measured = served > 0 ? served * RATE_MARGIN : null
    const lowered = this.rate === null ? measured : Math.min(this.rate * RATE_MARGIN, measured ?? this.rate)
    this.rate = lowered === null ? null : Math.max(lowered, 0.2)
  }

  private grow(): void {
    // Slow start adds one per answer (doubling per round trip); after a cut, one per round trip.
    const step = this.slowStart ? 1 : 1 / Math.max(1, this.limit)
    this.limit = Math.min(this.ceilingValue, this.limit + step)
  }

  private noteLatency(latencyMs: number, now: number): void {
    const second = Math.floor(now / 1000)
    const last = this.lowestBySecond.at(-1)
    if (last?.second === second) last.latencyMs = Math.min(last.latencyMs, latencyMs)
    else this.lowestBySecond.push({ second, latencyMs })
    const oldest = second - FLOOR_WINDOW_MS / 1000
    while (this.lowestBySecond.length && this.lowestBySecond[0]!.second < oldest) this.lowestBySecond.shift()
    // The lowest lately; a floor from a faster past is forgotten once the window has gone by.
    let lowest = Number.POSITIVE_INFINITY
    for (const entry of this.lowestBySecond) if (entry.latencyMs < lowest) lowest = entry.latencyMs
    this.floorLatency = lowest
  }

  private forgetOldAnswers(): void {
    const since = this.now() - WINDOW_MS
    for (const times of [this.answeredAt, this.servedAt]) {
      let drop = 0
      while (drop < times.length && times[drop]! < since) drop++
      if (drop) times.splice(0, drop)
    }
  }

  private wake(): void {
    const places = Math.max(0, Math.floor(this.limit) - this.inFlight)
    for (const wake of this.waiting.splice(0, Math.max(places, 0))) wake()
  }
}

/** "checking about 60 names a second": the pace in the words a run's progress uses. */
export function paceInWords(perSecond: number, what: string): string {
  if (perSecond <= 0) return `waiting for the service`
  const rounded = perSecond >= 10 ? Math.round(perSecond / 5) * 5 : Math.max(1, Math.round(perSecond))
  return `${what} about ${rounded} a second`
}
