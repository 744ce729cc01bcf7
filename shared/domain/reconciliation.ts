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
    /**
     * What happens to a movement the service never received (after 'unknown', verification
     * 'absent'): `sent_again` (a bulk batch: its run sends it now, with the same references) or
     * `send_again_offered` (a payout or a card: the user may send it again, same reference).
     */
    followUp?: AbsentFollowUp
  }>
}

export type AbsentFollowUp = 'sent_again' | 'send_again_offered'
