/**
 * The pace of a run's step in plain words (decision 144), for its progress: "checking about 60
 * names a second", "sending about 3 batches a second", "following 12 batches". Computed in main
 * from what actually answered (this run's rows checked, its batches answered), over the last few
 * seconds, so the words follow the service as it speeds up or slows down.
 */
import { paceInWords } from '../../api'

/** Answers are counted over this long (or since the first, when the step is younger). */
const WINDOW_MS = 5_000

/** Counts answers as they come and says how many a second came lately. */
export class AnswerMeter {
  private readonly times: number[] = []
  private first: number | null = null

  constructor(private readonly now: () => number = Date.now) {}

  answered(count = 1): void {
    const at = this.now()
    this.first ??= at
    for (let i = 0; i < count; i++) this.times.push(at)
  }

  /** Answers a second over the last five seconds (over the time since the first, at least 1 s). */
  perSecond(): number {
    const now = this.now()
    const since = now - WINDOW_MS
    let drop = 0
    while (drop < this.times.length && this.times[drop]! < since) drop++
    if (drop) this.times.splice(0, drop)
    if (this.first === null) return 0
    const span = Math.max(1_000, Math.min(WINDOW_MS, now - this.first))
    return this.times.length / (span / 1000)
  }
}

const NAMES = { one: 'name', many: 'names' }
const BATCHES = { one: 'batch', many: 'batches' }

export function checkingInWords(meter: AnswerMeter): string {
  return paceInWords(meter.perSecond(), 'checking', NAMES)
}

export function sendingInWords(meter: AnswerMeter): string {
  return paceInWords(meter.perSecond(), 'sending', BATCHES)
}

/** "following 12 batches": monitoring's batches still open, each asked about in turn. */
export function followingInWords(open: number): string {
  return `following ${open} ${open === 1 ? 'batch' : 'batches'}`
}
