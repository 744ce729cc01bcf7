/** What start-up reconciliation found, shown to the user once the app has checked. */
import type { MovementKind, MovementState, Verification } from './journal'

export interface ReconciliationReport {
  startedAt: string
  finishedAt: string
  items: Array<{
    reference: string
    kind: MovementKind
    before: MovementState
    after: MovementState
    note: string
    verification?: Verification
  }>
}
