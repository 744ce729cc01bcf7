/**
 * Start-up reconciliation: every movement the journal left open (recorded, sent, processing,
 * unknown) is verified by its reference with the service, through the verifier its domain
 * registered, and what was found is appended to the journal. Nothing is ever resent here.
 */
import type { MovementKind, MovementView, Verification } from '../../../../shared/domain/journal'
import { OPEN_STATES } from '../../../../shared/domain/journal'
import type { ReconciliationReport } from '../../../../shared/domain/reconciliation'
import type { Journal } from './journal'

/** What a verification by reference found. */
export type VerifiedOutcome =
  | { found: 'success' | 'failed' | 'processing'; note: string; data?: Record<string, unknown> }
  | { found: 'absent'; note: string }
  /** The service could not say (unreachable, keys missing): stays open, tried again later. */
  | { found: 'unknown'; note: string }

export type Verifier = (movement: MovementView) => Promise<VerifiedOutcome>

export interface Reconciler {
  register(kind: MovementKind, verifier: Verifier): void
  /** Verifies one open movement now and journals what was found. */
  verifyOne(reference: string): Promise<MovementView>
  /** Verifies every open movement once; safe to call again. */
  run(): Promise<ReconciliationReport>
  lastReport(): ReconciliationReport | null
}

export function createReconciler(journal: Journal, onReport?: (report: ReconciliationReport) => void): Reconciler {
  const verifiers = new Map<MovementKind, Verifier>()
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
    // The movement's own poller may have finished it while we asked: its answer stands.
    const now = journal.get(reference)
    if (!now || !OPEN_STATES.includes(now.state)) return now ?? movement
    return journal.append(reference, eventOf(now, outcome))
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
        items.push({
          reference: movement.reference,
          kind: movement.kind,
          before,
          after: after.state,
          note: after.timeline.at(-1)?.note ?? '',
          ...(after.lastVerification ? { verification: after.lastVerification } : {}),
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
    register: (kind, verifier) => void verifiers.set(kind, verifier),
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

function eventOf(
  movement: MovementView,
  outcome: VerifiedOutcome,
): { state?: MovementView['state']; note: string; verification?: Verification; data?: Record<string, unknown> } {
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
      return { ...(movement.state === 'sent' ? { state: 'unknown' as const } : {}), note: outcome.note }
  }
}
