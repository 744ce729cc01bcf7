/**
 * The rules of closing a reconciled period (decision 119), enforced here in main whatever the
 * screen shows:
 * - an exception is explained by a reason from the list and a note; main stamps who and when. An
 *   `unverified` line cannot be explained: it is not known what happened, so it is verified again
 *   (reconcile the period once more), never explained away;
 * - nothing is explained, changed or closed while the period is closed: it is reopened first, with
 *   a reason;
 * - a period closes only when every exception (every one, not only those shown) is explained and no
 *   payout of it is still processing at the service.
 * - in team mode (decision 149) a payout made by nobody in the team closes only once one member
 *   explained it and a different member confirmed that explanation; the team's database enforces
 *   it too, whoever calls.
 * Every record is fsynced (closing-records.ts), or in team mode committed to the team's database
 * (team-closing-records.ts), before the call answers.
 */
import type { ReconLine } from '../../../../shared/reconciliation/period-match'
import type {
  ExplanationReason,
  PeriodCloseState,
  ReconExplanation,
} from '../../../../shared/reconciliation/period-close'
import { AppFailure } from '../../../../shared/result'
import type { ClosingRecords } from './closing-records'

/** The period a person is closing: its key and every exception and still-open payout main found. */
export interface PeriodUnderClose {
  key: string
  exceptions: readonly ReconLine[]
  stillOpen: number
}

export interface Stamp {
  by: string
  at: string
}

/** Why a line cannot be explained now, or null when it can (the rule the handler and the view share). */
function explainRefusal(records: ClosingRecords, key: string, line: ReconLine): string | null {
  if (records.period(key).closed) return closedRefusal('explaining a payout')
  if (line.state === 'unverified')
    return `${line.reference} could not be verified with the service: reconcile the period again to verify it; it cannot be explained while nobody knows what became of it.`
  return null
}

const closedRefusal = (what: string) => `The period is closed: reopen it, with a reason, before ${what}.`

/** Where the period's close stands; `shown` are the exceptions the screen lists. */
export function closeStateOf(
  records: ClosingRecords,
  period: PeriodUnderClose,
  shown: readonly ReconLine[] = period.exceptions,
): PeriodCloseState {
  const recorded = records.period(period.key)
  const explained = period.exceptions.filter((line) => recorded.explanations.has(line.reference)).length
  const lastClose = [...recorded.events].reverse().find((event) => event.type === 'closed')
  const unexplained = period.exceptions.length - explained
  const awaitingSecond = records.team ? (recorded.awaitingSecond ?? []) : []
  const waiting = new Set(awaitingSecond)
  return {
    closed: recorded.closed,
    closedBy: recorded.closed ? (lastClose?.by ?? null) : null,
    closedAt: recorded.closed ? (lastClose?.at ?? null) : null,
    report: recorded.closed ? (lastClose?.report ?? null) : null,
    explained,
    unexplained,
    stillOpen: period.stillOpen,
    events: recorded.events,
    can: {
      explain: !recorded.closed,
      close: !recorded.closed && unexplained === 0 && period.stillOpen === 0 && awaitingSecond.length === 0,
      reopen: recorded.closed,
      exportJournal: recorded.closed,
    },
    explainable: shown
      .filter((line) => explainRefusal(records, period.key, line) === null)
      .map((line) => line.reference),
    secondPerson: records.team !== undefined,
    awaitingSecond,
    confirmable: recorded.closed
      ? []
      : shown
          .filter((line) => {
            const explanation = recorded.explanations.get(line.reference)
            return waiting.has(line.reference) && explanation && explanation.by !== records.team?.member
          })
          .map((line) => line.reference),
  }
}

/** The explanations recorded for some of the period's lines (those the screen shows). */
export function explanationsOf(
  records: ClosingRecords,
  key: string,
  lines: readonly Pick<ReconLine, 'reference'>[],
): ReconExplanation[] {
  const recorded = records.period(key).explanations
  return lines.flatMap((line) => {
    const explanation = recorded.get(line.reference)
    return explanation ? [explanation] : []
  })
}

function refuseWhileClosed(records: ClosingRecords, key: string, what: string): void {
  if (records.period(key).closed) throw new AppFailure('conflict', closedRefusal(what))
}

export async function explainException(
  records: ClosingRecords,
  period: PeriodUnderClose,
  input: { reference: string; reason: ExplanationReason; note: string },
  stamp: Stamp,
): Promise<void> {
  refuseWhileClosed(records, period.key, 'explaining a payout')
  const line = period.exceptions.find((exception) => exception.reference === input.reference)
  if (!line)
    throw new AppFailure(
      'not_found',
      `${input.reference} is not an exception of this period: only exceptions are explained.`,
    )
  const refusal = explainRefusal(records, period.key, line)
  if (refusal) throw new AppFailure('conflict', refusal)
  await records.append({
    type: 'explained',
    period: period.key,
    reference: input.reference,
    reason: input.reason,
    note: input.note,
    ...stamp,
  })
}

/**
 * Refuses a confirmation the screen would not offer (decision 149), in plain words, before the
 * team's database is asked (it refuses the author too, whoever calls).
 */
export function confirmableOrRefuse(records: ClosingRecords, period: PeriodUnderClose, reference: string): void {
  refuseWhileClosed(records, period.key, 'confirming an explanation')
  const explanation = records.period(period.key).explanations.get(reference)
  if (!explanation)
    throw new AppFailure(
      'not_found',
      `${reference} has no explanation yet: a member explains it first, then a different member confirms.`,
    )
  if (explanation.by === records.team?.member)
    throw new AppFailure(
      'forbidden',
      `You explained ${reference}, so a different member of the team confirms your explanation: ask them to open this period on their Reconciliation screen.`,
    )
}

/** Refuses a close the rules do not allow (the same rules closeStateOf reports). */
export function assertClosable(records: ClosingRecords, period: PeriodUnderClose): void {
  refuseWhileClosed(records, period.key, 'closing it again')
  const state = closeStateOf(records, period)
  if (state.unexplained > 0)
    throw new AppFailure(
      'conflict',
      `${state.unexplained} ${state.unexplained === 1 ? 'exception has' : 'exceptions have'} no explanation yet: explain every exception before closing the period.`,
    )
  if (state.awaitingSecond.length > 0) {
    const count = state.awaitingSecond.length
    throw new AppFailure(
      'conflict',
      `${count} ${count === 1 ? 'payout' : 'payouts'} made with the key by nobody in the team ${count === 1 ? 'waits' : 'wait'} for a second member (${state.awaitingSecond.slice(0, 5).join(', ')}${count > 5 ? ', …' : ''}): one member explains it, and a different member of the team confirms that explanation on their Reconciliation screen before the period closes.`,
    )
  }
  if (state.stillOpen > 0)
    throw new AppFailure(
      'conflict',
      `${state.stillOpen} ${state.stillOpen === 1 ? 'payout is' : 'payouts are'} still processing at the service: reconcile the period again once they are final.`,
    )
}

/** Records the close, with the report it wrote (decision 141), once the rules allow it. */
export async function closePeriod(
  records: ClosingRecords,
  period: PeriodUnderClose,
  stamp: Stamp,
  report?: { pdf: string; xlsx: string },
): Promise<void> {
  assertClosable(records, period)
  await records.append({
    type: 'closed',
    period: period.key,
    exceptions: period.exceptions.length,
    ...stamp,
    ...(report ? { report } : {}),
  })
}

export async function reopenPeriod(
  records: ClosingRecords,
  period: Pick<PeriodUnderClose, 'key'>,
  reason: string,
  stamp: Stamp,
): Promise<void> {
  if (!records.period(period.key).closed)
    throw new AppFailure('conflict', 'The period is not closed: nothing to reopen.')
  await records.append({ type: 'reopened', period: period.key, reason, ...stamp })
}
