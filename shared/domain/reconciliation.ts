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

const KIND_NAMES: Record<MovementKind, [string, string]> = {
  payout: ['payout', 'payouts'],
  bulk_batch: ['bulk batch', 'bulk batches'],
  card_issue: ['card issue', 'card issues'],
  charge: ['card charge', 'card charges'],
}

/** "bulk batch BR…-B0001", "2 payouts (A, B)": what a group of movements is, by name. */
function named(items: ReconciliationReport['items']): string {
  const kinds = new Set(items.map((item) => item.kind))
  const [one, many] = kinds.size === 1 ? KIND_NAMES[items[0]!.kind] : ['movement', 'movements']
  const references = items.map((item) => item.reference).join(', ')
  return items.length === 1 ? `${one} ${references}` : `${items.length} ${many} (${references})`
}

/**
 * What the start-up check did, in plain words for its notice: how many movements it checked, which
 * the service never received and are being sent again now (bulk batches, by their runs), which
 * the user may send again, and that nothing else was sent. It never says "nothing was sent again"
 * while something is.
 */
export function reconciliationSummary(report: ReconciliationReport): string {
  const checked = report.items.length
  const resent = report.items.filter((item) => item.followUp === 'sent_again')
  const offered = report.items.filter((item) => item.followUp === 'send_again_offered')
  const sentences = [
    `${checked} ${checked === 1 ? 'movement was' : 'movements were'} left open and checked by reference.`,
  ]
  if (resent.length > 0)
    sentences.push(
      `The service never received ${named(resent)}: ${resent.length === 1 ? 'it is' : 'they are'} being sent now, with the same references.`,
    )
  if (offered.length > 0)
    sentences.push(
      `The service never received ${named(offered)}: you may send ${offered.length === 1 ? 'it' : 'them'} again, with the same reference.`,
    )
  sentences.push(resent.length > 0 ? 'Nothing else was sent again.' : 'Nothing was sent again.')
  return sentences.join(' ')
}
