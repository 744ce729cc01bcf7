/**
 * What the adaptive pace (adaptive-pace.ts) knows of one group of paths: its latency floor, its
 * requests waiting and in flight, when the next may leave, and the rate a 429 taught.
 *
 * The rate is read between two refusals (decision 163). A 429 means the service's meter was empty
 * when that request reached it; a metered service refills at its rate, so between two refusals it
 * took exactly the requests that left in between: their count over the time between is its rate,
 * whatever burst it allowed at first. (A rate read over a window of answers counts that burst: the
 * first 429 of a run came after the service let a second's worth through at once.) The first 429
 * has no refusal before it: what the service took until then counts as one second's worth (a
 * metered service's burst is about a second of its rate), a guess that keeps the first requests
 * after the pause from leaving as fast as the window allows (decision 157 learnt nothing there);
 * the next refusal, one pause later, reads the rate.
 */

/** Answers a rate is measured over. */
export const WINDOW_MS = 5_000
/** The floor follows a network that changed: the lowest latency of this long ago or since. */
const FLOOR_WINDOW_MS = 30_000
/** Refusals closer together than this are one crowded moment: too few requests between to count. */
export const BURST_MS = 1_000
/** After a 429, requests leave at this share of the rate the service was found to take. */
export const RATE_MARGIN = 0.97
/** The learnt rate is probed upwards by this share per answer (about 2% a second at 40 a second). */
export const RATE_PROBE = 0.0005
/**
 * A rate guessed from the first refusal (below) is probed faster: it is a guess, and one below the
 * service's would hold the run under it (0.5% an answer: doubling in about 140 answers).
 */
export const GUESS_PROBE = 0.005
/**
 * In slow start no more requests of a group leave in any second than twice those it had answered
 * in the second before (the AWS SDK's adaptive mode: never past twice the measured rate): while
 * the service takes everything that doubles per round trip, once its meter runs dry it is twice
 * what it takes, so the round trip before the first 429 is known sends little into it.
 */
const SLOW_START_SPAN_MS = 1_000
/** No learnt rate is slower than this (requests a second). */
const MIN_RATE = 0.2
/** Weight of the newest answer in the smoothed latency (jitter of single answers is not a rise). */
const SMOOTHING = 0.2

/** When a request left, and its place among its group's departures (the first is 1). */
export interface Departure {
  leftAt: number
  departure: number
}

export interface Waiter {
  /** Order of asking, across groups: the one that asked first leaves first. */
  order: number
  wake: (departure: Departure) => void
}

export class GroupPace {
  lowestBySecond: Array<{ second: number; latencyMs: number }> = []
  floorLatency: number | null = null
  smoothedLatency: number | null = null
  /** The fastest answer since the last cut: a queue drains after a cut, a moved floor does not. */
  fastestSinceCut = Number.POSITIVE_INFINITY
  /** The smoothed latency when the pace last cut for this group. */
  smoothedAtCut = 0
  /** Cuts in a row after which latency did not ease: three, and the floor has moved. */
  cutsWithoutRelief = 0
  answers = 0
  /** After a cut, answers to wait for before judging latency again (one round). */
  judgeFrom = 0
  readonly answeredAt: number[] = []
  /** Within the last `SLOW_START_SPAN_MS`: when this group's requests left, and were served. */
  private readonly recentLeft: number[] = []
  private readonly recentServed: number[] = []
  limited = 0
  /** Requests a second learnt from 429s, or null while none could be read. */
  rate: number | null = null
  /** The rate is the first refusal's guess, not yet read between two refusals. */
  guessed = false
  /** When this group's first request left. */
  firstLeftAt: number | null = null
  /** The earliest the next request of this group may leave. */
  nextLeaveAt = 0
  /** Requests of this group that have left (a running count) and are in flight. */
  departures = 0
  inFlight = 0
  /** The last request the service refused: when it left, and its place among departures. */
  lastRefused: { leftAt: number; departure: number } | null = null
  /** Requests waiting to leave, first asked first; `head` is the next one's index. */
  readonly queue: Waiter[] = []
  head = 0

  waiting(): Waiter | undefined {
    return this.queue[this.head]
  }

  take(): Waiter {
    const waiter = this.queue[this.head++]!
    // Compacted now and then, so a long run's queue does not keep every waiter it ever had.
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue.splice(0, this.head)
      this.head = 0
    }
    return waiter
  }

  left(now: number): void {
    this.recentLeft.push(now)
    this.departures++
    this.firstLeftAt ??= now
  }

  served(now: number): void {
    this.recentServed.push(now)
  }

  /** In slow start: when the next request may leave, by the answers of the last second (see above). */
  slowStartLeaveAt(now: number, firstWindow: number): number {
    const since = now - SLOW_START_SPAN_MS
    for (const times of [this.recentLeft, this.recentServed]) {
      let drop = 0
      while (drop < times.length && times[drop]! <= since) drop++
      if (drop) times.splice(0, drop)
    }
    if (this.recentLeft.length < Math.max(firstWindow, 2 * this.recentServed.length)) return now
    // Or once enough of the last second's departures are a second old (an answer may come sooner).
    const over = this.recentLeft.length - Math.max(firstWindow, 2 * this.recentServed.length)
    return this.recentLeft[over]! + SLOW_START_SPAN_MS
  }

  noteLatency(latencyMs: number, now: number): void {
    const second = Math.floor(now / 1000)
    const last = this.lowestBySecond.at(-1)
    if (last?.second === second) last.latencyMs = Math.min(last.latencyMs, latencyMs)
    else this.lowestBySecond.push({ second, latencyMs })
    const oldest = second - FLOOR_WINDOW_MS / 1000
    while (this.lowestBySecond.length && this.lowestBySecond[0]!.second < oldest) this.lowestBySecond.shift()
    let lowest = Number.POSITIVE_INFINITY
    for (const entry of this.lowestBySecond) if (entry.latencyMs < lowest) lowest = entry.latencyMs
    this.floorLatency = lowest
    this.smoothedLatency =
      this.smoothedLatency === null ? latencyMs : this.smoothedLatency + SMOOTHING * (latencyMs - this.smoothedLatency)
    this.fastestSinceCut = Math.min(this.fastestSinceCut, latencyMs)
  }

  /** The floor moved: what was seen since the cut is the new floor. */
  rebase(now: number): void {
    this.lowestBySecond = [{ second: Math.floor(now / 1000), latencyMs: this.fastestSinceCut }]
    this.floorLatency = this.fastestSinceCut
  }

  /**
   * The learnt rate probed upwards by `share`, but never past twice what this group was answered
   * over the last seconds (the AWS SDK's cap again): while the desk, not the service, sets the pace
   * no 429 comes to read the rate, and a probe left alone compounds without end (a guess of 250 a
   * second read 81,557 after 2,000 answers), so a limit met later would meet no rate at all.
   */
  probe(now: number, share: number): void {
    if (this.rate === null) return
    this.forgetOld(now)
    const first = this.answeredAt[0] ?? now
    const seconds = Math.max(1, Math.min(WINDOW_MS, now - first) / 1000)
    const answered = this.answeredAt.length / seconds
    if (this.rate < 2 * answered) this.rate = Math.min(2 * answered, this.rate * (1 + share))
  }

  forgetOld(now: number): void {
    const since = now - WINDOW_MS
    let drop = 0
    while (drop < this.answeredAt.length && this.answeredAt[drop]! < since) drop++
    if (drop) this.answeredAt.splice(0, drop)
  }

  /**
   * The service refused the request that left at `leftAt` as the `departure`-th of this group.
   * With a refusal before it at least `BURST_MS` earlier, the requests that left between were what
   * the service took meanwhile: the rate becomes that, less a margin (never more than it was).
   * Without one, a rate already learnt comes down by the margin, once per crowded moment (`cut`).
   */
  refused(leftAt: number, departure: number, cut: boolean): void {
    const previous = this.lastRefused
    // An earlier request's refusal read late says nothing the later one did not.
    if (previous && departure <= previous.departure) return
    this.lastRefused = { leftAt, departure }
    if (!previous) {
      // Everything before the first refusal was taken: as if over at least a second.
      const span = Math.max(BURST_MS, leftAt - (this.firstLeftAt ?? leftAt))
      if (this.rate === null) {
        this.rate = Math.max(MIN_RATE, (departure - 1) / (span / 1000))
        this.guessed = true
      } else if (cut) this.rate = Math.max(MIN_RATE, this.rate * RATE_MARGIN)
      return
    }
    const span = leftAt - previous.leftAt
    if (span >= BURST_MS) {
      const taken = (departure - previous.departure - 1) / (span / 1000)
      this.rate = Math.max(MIN_RATE, Math.min(this.rate ?? Number.POSITIVE_INFINITY, taken) * RATE_MARGIN)
      this.guessed = false
    } else if (this.rate !== null && cut) this.rate = Math.max(MIN_RATE, this.rate * RATE_MARGIN)
  }
}
