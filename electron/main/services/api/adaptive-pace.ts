/**
 * How many requests to one payments service may be in flight at once, learnt from its answers
 * (decision 112): it starts where the desk's fixed lanes start, grows while latency stays near the
 * lowest seen and no 429 comes, cuts back on a 429 (by half) or a latency rise (by a fifth), and
 * never passes a ceiling a setting can lower. A 429's Retry-After pauses every request to that
 * service once, together, instead of each lane waiting out its own. One pace per profile (one
 * service host): name checks, submission and monitoring share it. Growth is TCP's: doubling per
 * round trip until the first cut ("slow start"), then one more request per round trip.
 *
 * Requests leave paced, never as a crowd (decision 163): a group's first window of 8 before its
 * first answer, then its allowance spread over a round trip (Linux TCP's pacing: twice as fast as
 * the allowance in slow start, a fifth faster after), and in slow start never more in a second than
 * twice what it had answered in the second before (the AWS SDK's adaptive mode). A metered service
 * lets a burst through, then answers 429 to what leaves after its meter ran dry: a window sent at
 * once was mostly refused at a low limit; paced, the first 429 comes back before many follow it.
 *
 * A rate limit does not show in latency: a service that meters requests a second answers fast
 * until it answers 429. So a 429 also teaches a rate (adaptive-pace-group.ts): the requests that
 * left between two refusals are what the service took meanwhile; requests then leave no faster
 * than that (slightly less), and that rate is probed upwards by about 2% a second, so a limit that
 * rises is found again and a limit that holds is met rarely.
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
import { GroupPace, GUESS_PROBE, RATE_PROBE, WINDOW_MS, type Departure } from './adaptive-pace-group'
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
  /** Requests in flight now, and waiting for their turn to leave. */
  inFlight: number
  waiting: number
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
/**
 * Requests of a group that leave together before its first answer says how long a round trip
 * takes (TCP's initial window, RFC 3390/6928): after it, leaving times are spread over the round
 * trip. 8: the desk's fixed name-check lanes, so a short run is no slower than they were.
 */
const FIRST_WINDOW = 8
/**
 * The allowance leaves over a round trip sped up by this much: twice in slow start, a fifth after
 * (Linux TCP's pacing rate: 200% and 120% of window / round trip), so pacing never holds back what
 * the allowance lets through, and a window never leaves in one burst.
 */
const PACING_GAIN_SLOW_START = 2
const PACING_GAIN = 1.2
const DEFAULT_GROUP = 'all'

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
  private asked = 0
  /** When the one timer that lets waiting requests go fires next, if one is set. */
  private timerAt: number | null = null
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
   * Waits for a place (and out any pause, and the group's pacing), then holds it until `done` is
   * called with the answer's sample. Every request to the service goes through here, so none
   * leaves during a pause. Requests leave in the order they asked, one at a time: a place freed or
   * a pause ended lets the next go, never a crowd that races for it.
   */
  async begin(group: string = DEFAULT_GROUP): Promise<(sample: PaceSample) => void> {
    const state = this.groupOf(group)
    // letGo counts the request in flight, sets its group's next leaving time, and says when it left.
    const { leftAt, departure } = await new Promise<Departure>((wake) => {
      state.queue.push({ order: this.asked++, wake })
      this.letGo()
    })
    const stalls = this.stalls
    stalls?.hold()
    const stalledBefore = stalls?.total() ?? 0
    let finished = false
    return (sample) => {
      if (finished) return
      finished = true
      this.inFlight--
      state.inFlight--
      // An answer read after this process was held (its own work, a busy computer) took longer by
      // a stall that is not the service's: a desk that was busy is not a service that queues
      // (decision 158), and how long the service took is not known.
      const stalled = stalls ? stalls.total() - stalledBefore > 0 : false
      stalls?.release()
      this.learn(state, sample, stalled, { leftAt, departure })
      this.letGo()
    }
  }

  /**
   * Lets waiting requests leave while the pace allows: no pause, a place free, and their group's
   * leaving time reached (the learnt rate, and the allowance spread over a round trip). The group
   * whose next request asked first goes first. Otherwise one timer waits for the earliest time.
   */
  private letGo(): void {
    for (;;) {
      const now = this.now()
      if (now < this.pausedUntil) return this.wakeAt(this.pausedUntil)
      if (this.inFlight >= Math.floor(this.limit)) return
      let chosen: GroupPace | null = null
      let earliest = Number.POSITIVE_INFINITY
      for (const state of this.groups.values()) {
        const next = state.waiting()
        if (!next) continue
        // Before its first answer, a group sends its first window and waits to learn a round trip.
        if (state.floorLatency === null && state.inFlight >= FIRST_WINDOW) continue
        const at = this.slowStart
          ? Math.max(state.nextLeaveAt, state.slowStartLeaveAt(now, FIRST_WINDOW))
          : state.nextLeaveAt
        if (at > now) earliest = Math.min(earliest, at)
        else if (!chosen || next.order < chosen.waiting()!.order) chosen = state
      }
      if (!chosen) {
        if (earliest < Number.POSITIVE_INFINITY) this.wakeAt(earliest)
        return
      }
      const waiter = chosen.take()
      this.inFlight++
      chosen.inFlight++
      chosen.left(now)
      // The next leaving time follows from this one's, not from when this one was let go (decision
      // 180): Node's timers fire on whole milliseconds of the loop's clock, `Date.now()` counts
      // whole milliseconds of another, and a busy loop wakes them late, so a bulk run's 2.6 ms
      // between batches came out at 3 to 4.3 ms. Lateness up to half a gap is made up by the next
      // gap, so the requests leave at the pace's rate; never two at the same moment.
      const gap = this.gapOf(chosen)
      chosen.nextLeaveAt = Math.max(now - gap / 2, chosen.nextLeaveAt) + gap
      waiter.wake({ leftAt: now, departure: chosen.departures })
    }
  }

  /** Between two requests of a group: its learnt rate's, and the allowance's spread over a round trip. */
  private gapOf(state: GroupPace): number {
    const gain = this.slowStart ? PACING_GAIN_SLOW_START : PACING_GAIN
    const spread = state.floorLatency === null ? 0 : state.floorLatency / (gain * Math.max(1, Math.floor(this.limit)))
    return Math.max(spread, state.rate === null ? 0 : 1000 / state.rate)
  }

  private wakeAt(at: number): void {
    if (this.timerAt !== null && this.timerAt <= at) return
    this.timerAt = at
    void this.sleep(Math.max(0, at - this.now())).then(() => {
      if (this.timerAt === at) this.timerAt = null
      this.letGo()
    })
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
    let waiting = 0
    for (const state of this.groups.values()) waiting += state.queue.length - state.head
    return {
      limit: Math.floor(this.limit),
      inFlight: this.inFlight,
      waiting,
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
  private learn(
    state: GroupPace,
    sample: PaceSample,
    stalled: boolean,
    request: { leftAt: number; departure: number },
  ): void {
    const now = this.now()
    state.answeredAt.push(now)
    state.forgetOld(now)
    if (sample.rateLimited) {
      this.limitedCount++
      state.limited++
      // One pause for everyone: a second 429 inside it extends nothing it already covers.
      this.pausedUntil = Math.max(this.pausedUntil, now + (sample.retryAfterMs ?? this.defaultPauseMs))
      state.refused(request.leftAt, request.departure, this.cut(0.5, now, state))
      // Halved below what the learnt rate needs in flight (rate x round trip, paced a fifth faster),
      // the allowance would hold the requests back below the rate, not the 429s off.
      if (state.rate !== null && state.floorLatency !== null) {
        const needed = Math.ceil((state.rate * state.floorLatency * PACING_GAIN) / 1000) + 1
        this.limit = Math.min(this.ceilingValue, Math.max(this.limit, needed))
      }
      return
    }
    state.answers++
    state.served(now)
    if (state.rate !== null) state.probe(now, state.guessed ? GUESS_PROBE : RATE_PROBE)
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
      // Slow start grows on answers at the floor only, within HyStart's delay threshold (Linux
      // CUBIC's: an eighth of it, 4 to 16 ms): a window spread over a round trip shows a queue
      // first as a few milliseconds on every answer, before any answer is not flat.
      if (!this.slowStart || sample.latencyMs <= floor + Math.min(16, Math.max(4, floor / 8))) this.grow()
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
    // An allowance not used is not grown (TCP's window validation, RFC 7661): in slow start it stays
    // within twice what was in flight, after it within one more. Spread over a round trip, a window
    // fills later than it grows, and grown unused it would all leave at once into a queue.
    const used = this.inFlight + 1
    if (this.limit >= (this.slowStart ? 2 * used : used + 1)) return
    // Slow start adds one per answer (doubling per round trip); after a cut, one per round trip.
    const step = this.slowStart ? 1 : 1 / Math.max(1, this.limit)
    this.limit = Math.min(this.ceilingValue, this.limit + step)
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
