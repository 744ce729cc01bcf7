/**
 * Start-up reconciliation: every movement the journal left open (recorded, sent, processing,
 * unknown) is verified by its reference with the service, through the verifier its domain
 * registered, and what was found is appended to the journal. Nothing is ever resent here.
 */
import type { MovementKind, MovementView } from '../../../../shared/domain/journal'
import { OPEN_STATES } from '../../../../shared/domain/journal'
import type { AbsentFollowUp, ReconciliationReport } from '../../../../shared/domain/reconciliation'
import type { Journal, NewEvent } from './journal'

/** What a verification by reference found. */
export type VerifiedOutcome =
  | { found: 'success' | 'failed' | 'processing'; note: string; data?: Record<string, unknown> }
  | { found: 'absent'; note: string }
  /** The service could not say (unreachable, keys missing): stays open, tried again later. */
  | { found: 'unknown'; note: string }

export type Verifier = (movement: MovementView) => Promise<VerifiedOutcome>

export interface Reconciler {
  /**
   * `whenAbsent` says what the movement's domain does with one the service never received, so
   * the report can say it: send it again by itself (bulk batches) or offer it to the user.
   */
  register(
    kind: MovementKind,
    verifier: Verifier,
    whenAbsent?: AbsentFollowUp | ((movement: MovementView) => AbsentFollowUp | undefined),
  ): void
  /** Verifies one open movement now and journals what was found. */
  verifyOne(reference: string): Promise<MovementView>
  /** Verifies every open movement once; safe to call again. */
  run(): Promise<ReconciliationReport>
  lastReport(): ReconciliationReport | null
}

export function createReconciler(journal: Journal, onReport?: (report: ReconciliationReport) => void): Reconciler {
  const verifiers = new Map<MovementKind, Verifier>()
  const followUps = new Map<MovementKind, (movement: MovementView) => AbsentFollowUp | undefined>()
  let last: ReconciliationReport | null = null
  let running: Promise<ReconciliationReport> | null = null

  async function verifyOne(reference: string): Promise<MovementView> {
    const movement = journal.get(reference)
    if (!movement) throw new Error(`No movement ${reference} in the journal`)
    if (!OPEN_STATES.includes(movement.state)) return movement
    const verifier = verifiers.get(movement.kind)
    if (!verifier) return movement
    let outcome: VerifiedOutcome
    try {
      outcome = await verifier(movement)
    } catch (error) {
      outcome = { found: 'unknown', note: `Verification could not finish: ${(error as Error).message}` }
    }
    // The journal moved on while we asked (the movement's own poller finished it, its run sent or
    // accepted it): what was found before that is stale, and the later record stands.
    const now = journal.get(reference)
    if (!now || now.timeline.at(-1)?.seq !== movement.timeline.at(-1)?.seq) return now ?? movement
    const event = eventOfFinding(now, outcome)
    // The same finding as last time (a restart, a second look) is not written again.
    if (repeatsLastFinding(now, event)) return now
    return journal.append(reference, event)
  }

  async function runOnce(): Promise<ReconciliationReport> {
    const startedAt = new Date().toISOString()
    const open = journal.list({ states: OPEN_STATES })
    const items: ReconciliationReport['items'] = []
    for (const movement of open) {
      if (!verifiers.has(movement.kind)) continue
      const before = movement.state
      try {
        const after = await verifyOne(movement.reference)
        const absent = after.state === 'unknown' && after.lastVerification === 'absent'
        const followUp = absent ? followUps.get(movement.kind)?.(after) : undefined
        items.push({
          reference: movement.reference,
          kind: movement.kind,
          before,
          after: after.state,
          note: after.timeline.at(-1)?.note ?? '',
          ...(after.lastVerification ? { verification: after.lastVerification } : {}),
          ...(followUp ? { followUp } : {}),
        })
      } catch (error) {
        // One movement that cannot be journaled must not hide what the others found.
        items.push({
          reference: movement.reference,
          kind: movement.kind,
          before,
          after: before,
          note: `Could not record the verification: ${(error as Error).message}`,
        })
      }
    }
    const report: ReconciliationReport = { startedAt, finishedAt: new Date().toISOString(), items }
    last = report
    onReport?.(report)
    return report
  }

  return {
    register(kind, verifier, whenAbsent) {
      verifiers.set(kind, verifier)
      if (whenAbsent) followUps.set(kind, typeof whenAbsent === 'function' ? whenAbsent : () => whenAbsent)
    },
    verifyOne,
    run() {
      running ??= runOnce().finally(() => {
        running = null
      })
      return running
    },
    lastReport: () => last,
  }
}

/**
 * Whether `event` says nothing the last record does not: the same note, the same verification
 * and no change of state. The timeline gets one entry per finding, not one per look.
 */
export function repeatsLastFinding(movement: MovementView, event: NewEvent): boolean {
  const last = movement.timeline.at(-1)
  if (!last) return false
  return (
    (event.state === undefined || event.state === movement.state) &&
    event.note === last.note &&
    event.verification === last.verification
  )
}

/**
 * The journal event for what a verification by reference found. Every verifier's finding is
 * written this way (here at start-up, by the payout watcher, on "Verify now"), so a finding
 * repeated by another of them is recognised as the same.
 */
export function eventOfFinding(movement: MovementView, outcome: VerifiedOutcome): NewEvent {
  switch (outcome.found) {
    case 'success':
    case 'failed':
    case 'processing':
      return {
        ...(outcome.found !== movement.state ? { state: outcome.found } : {}),
        note: outcome.note,
        verification: 'found',
        ...(outcome.data ? { data: outcome.data } : {}),
      }
    case 'absent':
      // Never sent, or refused before it was accepted: "unknown" with "absent" allows a resend
      // with the same reference.
      return {
        ...(movement.state !== 'unknown' ? { state: 'unknown' as const } : {}),
        note: outcome.note,
        verification: 'absent',
      }
    case 'unknown':
      // Sent (or perhaps sent) and nobody can say yet: unknown, and followed until someone can.
      return {
        ...(movement.state === 'sent' || movement.state === 'recorded' ? { state: 'unknown' as const } : {}),
        note: outcome.note,
      }
  }
}
