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
 * Endpoints answer in their own times (a bank list in 10 ms, a name check in 300), and a service
 * meters them in groups: latency floors and learnt rates are kept per group of paths
 * (shared/rules/service-paths.ts), the number in flight is one for the service. A latency that
 * stays high after the pace cut back was not a queue it made: the floor moved (a slower network,
 * a slower endpoint), and the pace takes the new floor instead of cutting to nothing.
 *
 * The pace decides when a request may leave; it never decides whether one is sent again. A write
 * refused with 429 goes back through the one failure policy (sending/send-policy.ts) as "not
 * carried out", sent again with the same reference.
 */

import { PACE_CEILING_MAX } from '../../../../shared/domain/profiles'
import { processLoopStalls, type StallMeter } from './loop-stalls'

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
  /** Never more than this in flight. Default (and most) 32; a setting can lower it (decision 144). */
  ceiling?: number
  /** Never fewer. Default 1. */
  floor?: number
  /** A 429 without Retry-After pauses everyone this long. Default 1,000 ms. */
  defaultPauseMs?: number
  now?: () => number
  sleep?: (ms: number) => Promise<void>
  /**
   * How long this process's event loop was held while a request was in flight, taken off its
   * latency (decision 158). Default: the process's meter on the real clock; none on a given clock.
   */
  stalls?: StallMeter | null
}

export interface PaceView {
  /** Requests allowed in flight now. */
  limit: number
  ceiling: number
  /** Answers a second over the last five seconds, all groups. */
  perSecond: number
  /** Per group of paths that answered: answers a second, lowest latency lately, learnt rate. */
  groups: Record<string, { perSecond: number; floorLatencyMs: number | null; learntRate: number | null }>
  /** Until when every request waits out a Retry-After (epoch ms), if it does. */
  pausedUntil: number | null
  /** 429s met since the pace began. */
  rateLimited: number
  /** Requests a second the service was found to take (from its 429s) in the group that met most. */
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
/** Answers served over less than this are a metered service's burst, not its rate (decision 157). */
const BURST_MS = 1_000
/** After a 429, requests leave at this share of the rate the service was answering. */
const RATE_MARGIN = 0.97
/** The learnt rate is probed upwards by this share per answer (about 2% a second at 40 a second). */
const RATE_PROBE = 0.0005
const DEFAULT_GROUP = 'all'

/** What the pace knows of one group of paths. */
class GroupPace {
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
  readonly servedAt: number[] = []
  readonly answeredAt: number[] = []
  limited = 0
  /** Requests a second learnt from a 429, or null while none came. */
  rate: number | null = null
  nextStartAt = 0

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

  forgetOld(now: number): void {
    const since = now - WINDOW_MS
    for (const times of [this.answeredAt, this.servedAt]) {
      let drop = 0
      while (drop < times.length && times[drop]! < since) drop++
      if (drop) times.splice(0, drop)
    }
  }

  /**
   * The rate the service was serving this group when it refused: what it takes, less a margin.
   * Answers served over less than `BURST_MS` measure nothing (decision 157): a metered service lets
   * a burst through at once (a token bucket holds a second of requests), so the first 429 of a slow
   * start says how big its burst was, not how fast it serves. Counted over a second, the 16 answers
   * of the first round trip read "16 a second" from a service taking 20, and the desk then sent
   * a fifth slower than it could for the half-minute its probe took to climb back.
   */
  learnRate(now: number): void {
    this.forgetOld(now)
    const first = this.servedAt[0]
    const span = first === undefined ? 0 : now - first
    const measured = span >= BURST_MS ? (this.servedAt.length / (span / 1000)) * RATE_MARGIN : null
    const lowered = this.rate === null ? measured : Math.min(this.rate * RATE_MARGIN, measured ?? this.rate)
    this.rate = lowered === null ? null : Math.max(lowered, 0.2)
  }
}

/** What the desk's pools and progress read of a pace (decision 144). */
export interface PaceGauge {
  /** Requests allowed in flight now: the lanes a pool keeps open. */
  allowance(): number
  view(): PaceView
}

/** The most requests in flight to one service, whatever a setting says (decision 144). */
export { PACE_CEILING_MAX }

export class AdaptivePace implements PaceGauge {
  private limit: number
  private ceilingValue: number
  private readonly builtCeiling: number
  private readonly floorValue: number
  private readonly defaultPauseMs: number
  private readonly now: () => number
  private readonly sleep: (ms: number) => Promise<void>
  private readonly stalls: StallMeter | null
  private inFlight = 0
  private readonly waiting: Array<() => void> = []
  private pausedUntil = 0
  private slowStart = true
  private lastCutAt = Number.NEGATIVE_INFINITY
  private readonly groups = new Map<string, GroupPace>()
  private limitedCount = 0

  constructor(options: PaceOptions = {}) {
    this.ceilingValue = Math.max(1, Math.min(PACE_CEILING_MAX, Math.floor(options.ceiling ?? PACE_CEILING_MAX)))
    this.builtCeiling = this.ceilingValue
    this.floorValue = Math.max(1, Math.min(this.ceilingValue, Math.floor(options.floor ?? 1)))
    this.limit = Math.max(this.floorValue, Math.min(this.ceilingValue, options.start ?? 16))
    this.defaultPauseMs = options.defaultPauseMs ?? 1_000
    this.now = options.now ?? Date.now
    this.sleep = options.sleep ?? ((ms) => new Promise((done) => setTimeout(done, ms)))
    this.stalls = options.stalls !== undefined ? options.stalls : options.now ? null : processLoopStalls
  }

  /**
   * The setting "at most N at once" (decision 144): lowers the ceiling, or raises it again up to
   * what the pace was built with, never past it.
   */
  setCeiling(ceiling: number): void {
    this.ceilingValue = Math.max(this.floorValue, Math.min(this.builtCeiling, Math.floor(ceiling)))
    this.limit = Math.min(this.limit, this.ceilingValue)
  }

  allowance(): number {
    return Math.floor(this.limit)
  }

  /**
   * Waits for a place (and out any pause, and the group's learnt rate), then holds it until `done`
   * is called with the answer's sample. Every request to the service goes through here, so none
   * leaves during a pause.
   */
  async begin(group: string = DEFAULT_GROUP): Promise<(sample: PaceSample) => void> {
    const state = this.groupOf(group)
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
      if (state.rate !== null && now < state.nextStartAt) {
        await this.sleep(state.nextStartAt - now)
        continue
      }
      break
    }
    if (state.rate !== null) state.nextStartAt = Math.max(this.now(), state.nextStartAt) + 1000 / state.rate
    this.inFlight++
    const stalls = this.stalls
    stalls?.hold()
    const stalledBefore = stalls?.total() ?? 0
    let finished = false
    return (sample) => {
      if (finished) return
      finished = true
      this.inFlight--
      // An answer read after this process was held (its own work, a busy computer) took longer by
      // a stall that is not the service's: a desk that was busy is not a service that queues
      // (decision 158), and how long the service took is not known.
      const stalled = stalls ? stalls.total() - stalledBefore > 0 : false
      stalls?.release()
      this.learn(state, sample, stalled)
      this.wake()
    }
  }

  view(): PaceView {
    const now = this.now()
    const groups: PaceView['groups'] = {}
    let perSecond = 0
    let mostLimited: GroupPace | null = null
    for (const [name, state] of this.groups) {
      state.forgetOld(now)
      const answered = state.answeredAt.length / (WINDOW_MS / 1000)
      perSecond += answered
      groups[name] = { perSecond: answered, floorLatencyMs: state.floorLatency, learntRate: state.rate }
      if (state.limited > (mostLimited?.limited ?? 0)) mostLimited = state
    }
    return {
      limit: Math.floor(this.limit),
      ceiling: this.ceilingValue,
      perSecond,
      groups,
      pausedUntil: this.pausedUntil > now ? this.pausedUntil : null,
      rateLimited: this.limitedCount,
      learntRate: mostLimited?.rate ?? null,
    }
  }

  private groupOf(name: string): GroupPace {
    let state = this.groups.get(name)
    if (!state) this.groups.set(name, (state = new GroupPace()))
    return state
  }

  /** `stalled`: the answer was read late, so its latency says nothing of the service's. */
  private learn(state: GroupPace, sample: PaceSample, stalled = false): void {
    const now = this.now()
    state.answeredAt.push(now)
    state.forgetOld(now)
    if (sample.rateLimited) {
      this.limitedCount++
      state.limited++
      // One pause for everyone: a second 429 inside it extends nothing it already covers.
      this.pausedUntil = Math.max(this.pausedUntil, now + (sample.retryAfterMs ?? this.defaultPauseMs))
      // A 429 that came before any answer was served teaches no rate; a later one still can.
      if (this.cut(0.5, now, state) || state.rate === null) state.learnRate(now)
      return
    }
    state.servedAt.push(now)
    state.answers++
    if (state.rate !== null) state.rate *= 1 + RATE_PROBE
    if (stalled) return
    state.noteLatency(sample.latencyMs, now)
    const floor = state.floorLatency ?? sample.latencyMs
    const smoothed = state.smoothedLatency ?? sample.latencyMs
    // Slow start ends at the first answer that was not flat: doubling on a lagging average would
    // overshoot a queue by a round trip's worth.
    if (this.slowStart && sample.latencyMs > floor * FLAT + FLAT_SLACK_MS) this.slowStart = false
    if (state.answers < state.judgeFrom) return
    if (smoothed > floor * RISE + RISE_SLACK_MS) {
      if (state.judgeFrom > 0) {
        // A round after a cut: a queue of ours eases as it drains; a floor that moved does not.
        state.cutsWithoutRelief = smoothed >= 0.9 * state.smoothedAtCut ? state.cutsWithoutRelief + 1 : 0
        if (state.cutsWithoutRelief >= 3) {
          state.rebase(now)
          state.cutsWithoutRelief = 0
          state.judgeFrom = 0
          return
        }
      }
      if (this.cut(0.8, now, state)) {
        // The answers still in flight were sent at the old limit: judge again once they are back.
        state.judgeFrom = state.answers + Math.ceil(this.limit / 0.8)
        state.smoothedAtCut = smoothed
        state.fastestSinceCut = Number.POSITIVE_INFINITY
      }
    } else if (smoothed <= floor * FLAT + FLAT_SLACK_MS) {
      state.judgeFrom = 0
      state.cutsWithoutRelief = 0
      this.grow()
    }
  }

  /** At most one cut per round trip: the answers of one crowded moment are one signal, not many. */
  private cut(factor: number, now: number, state: GroupPace): boolean {
    this.slowStart = false
    const round = Math.max(state.floorLatency ?? 0, 50)
    if (now - this.lastCutAt < round) return false
    this.lastCutAt = now
    this.limit = Math.max(this.floorValue, this.limit * factor)
    return true
  }

  private grow(): void {
    // Slow start adds one per answer (doubling per round trip); after a cut, one per round trip.
    const step = this.slowStart ? 1 : 1 / Math.max(1, this.limit)
    this.limit = Math.min(this.ceilingValue, this.limit + step)
  }

  private wake(): void {
    const places = Math.max(0, Math.floor(this.limit) - this.inFlight)
    for (const wake of this.waiting.splice(0, places)) wake()
  }
}

/**
 * "checking about 60 names a second": a rate in the words a run's progress uses (decision 144).
 * Rounded to fives from ten up, so the words do not flicker with every answer.
 */
export function paceInWords(perSecond: number, verb: string, nouns: { one: string; many: string }): string {
  if (!(perSecond > 0)) return 'waiting for the service'
  if (perSecond < 0.75) return `${verb} about 1 ${nouns.one} every ${Math.round(1 / perSecond)} seconds`
  const rounded = perSecond >= 10 ? Math.round(perSecond / 5) * 5 : Math.round(perSecond)
  return `${verb} about ${rounded} ${rounded === 1 ? nouns.one : nouns.many} a second`
}
