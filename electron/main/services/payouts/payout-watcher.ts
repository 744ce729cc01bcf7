/**
 * Follows open payouts until they end, since a desktop app receives no webhooks: each one is
 * verified by reference with backoff (1 s, 2 s, 4 s ... capped at 15 s), after a restart too, and
 * each new finding is journaled once (a finding equal to the last is not written again). An
 * unknown payout found absent is still followed (it is shown "Unknown — verifying", and the service
 * may yet report it) while "Send again" is offered; success or failure ends the watch and is
 * announced. Timers are cancelled on close.
 */
import type { MovementView } from '../../../../shared/domain/journal'
import { isFinal } from '../../../../shared/domain/journal'
import type { Journal, NewEvent } from '../journal'
import { eventOfFinding, repeatsLastFinding } from '../journal'
import type { Verifier, VerifiedOutcome } from '../journal'

export interface PayoutWatcher {
  /** Starts following a payout (again), from the shortest delay. */
  watch(reference: string): void
  /** Verifies now, journals what was found whatever it is, and keeps following if still open. */
  verifyNow(reference: string): Promise<MovementView>
  close(): Promise<void>
}

export interface WatchDelays {
  firstMs: number
  maxMs: number
}

export const DEFAULT_WATCH_DELAYS: WatchDelays = { firstMs: 1000, maxMs: 15_000 }

export function createPayoutWatcher(deps: {
  journal: Journal
  verifier: Verifier
  onChange(movement: MovementView): void
  onFinal(movement: MovementView): void
  delays?: WatchDelays
}): PayoutWatcher {
  const delays = deps.delays ?? DEFAULT_WATCH_DELAYS
  const timers = new Map<string, { timer: ReturnType<typeof setTimeout>; attempt: number }>()
  const inFlight = new Map<string, Promise<MovementView>>()
  let closed = false

  function stillFollowed(movement: MovementView | undefined): movement is MovementView {
    return !!movement && movement.kind === 'payout' && !isFinal(movement.state)
  }

  function schedule(reference: string, attempt: number): void {
    if (closed) return
    const existing = timers.get(reference)
    if (existing) clearTimeout(existing.timer)
    const delay = Math.min(delays.firstMs * 2 ** attempt, delays.maxMs)
    const timer = setTimeout(() => {
      timers.delete(reference)
      void verify(reference, false).then(
        (after) => {
          if (stillFollowed(after)) schedule(reference, attempt + 1)
        },
        () => schedule(reference, attempt + 1),
      )
    }, delay)
    timers.set(reference, { timer, attempt })
  }

  function verify(reference: string, always: boolean): Promise<MovementView> {
    const running = inFlight.get(reference)
    if (running) return running
    const work = (async () => {
      const before = deps.journal.get(reference)
      if (!before) throw new Error(`No payout ${reference} in the journal`)
      if (isFinal(before.state)) return before
      const outcome = await deps.verifier(before)
      // The journal moved while we asked (a resend, another verification): this finding is stale.
      const current = deps.journal.get(reference) ?? before
      if (closed || isFinal(current.state) || current.timeline.at(-1)?.seq !== before.timeline.at(-1)?.seq)
        return current
      const event = eventOf(current, outcome, always)
      if (!event) return current
      const after = await deps.journal.append(reference, event)
      deps.onChange(after)
      if (isFinal(after.state)) deps.onFinal(after)
      return after
    })().finally(() => inFlight.delete(reference))
    inFlight.set(reference, work)
    return work
  }

  return {
    watch(reference) {
      if (stillFollowed(deps.journal.get(reference))) schedule(reference, 0)
    },
    async verifyNow(reference) {
      const after = await verify(reference, true)
      if (stillFollowed(after)) schedule(reference, 0)
      return after
    },
    async close() {
      closed = true
      for (const { timer } of timers.values()) clearTimeout(timer)
      timers.clear()
      await Promise.allSettled([...inFlight.values()])
    },
  }
}

/**
 * The journal event for what a verification found, or null when nothing new is worth a record
 * (still processing, or the same finding as the last one) unless the user asked (`always`).
 */
export function eventOf(movement: MovementView, outcome: VerifiedOutcome, always: boolean): NewEvent | null {
  const event = eventOfFinding(movement, outcome)
  if (always) return event
  if (outcome.found === 'success' || outcome.found === 'failed' || outcome.found === 'processing')
    return outcome.found === movement.state ? null : event
  return repeatsLastFinding(movement, event) ? null : event
}
