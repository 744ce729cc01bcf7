/**
 * A run's payee checks as its version carries them to the team (decision 135): for each row of
 * the content that the payee book flagged, or that has the sheet's payee id, its position in the
 * version, the payee's key, the account's key, the payee id, and the flags with the words this
 * desk shows for them. The team database works out from the kinds which rows are held, shows them
 * to every desk and the approver, and keeps the confirmations; a confirmation made on this desk is
 * not sent: in team mode the database records who confirmed.
 *
 * `payeeChecksStory` says whether the team's version already carries the same checks, so an edit
 * that changes only the flags (a refreshed payee book) is shared as a new version, like a review
 * that tells another story.
 */
import type { RunContent, RunRow } from '../../../../shared/domain/bulk-run'
import type { TeamPayeeChecks, TeamRowPayee } from '../../../../shared/domain/team'
import { payeeKeyOfRow, rowAccountKey } from '../../../../shared/bulk/payee-holds'
import { isHoldKind } from '../../../../shared/payees/confirmations'
import { explainTripwire } from '../../../../shared/payees/tripwires'

/** The most flagged rows the team lists with a version (run_payee_checks); the rest are counted. */
const LISTED = 1000

export function rowPayeesOf(content: RunContent, rows: readonly RunRow[]): TeamRowPayee[] {
  const byReference = new Map(rows.map((row) => [row.item.reference, row]))
  const payees: TeamRowPayee[] = []
  content.rows.forEach((payout, index) => {
    const row = byReference.get(payout.reference)
    if (!row) return
    const tripwires = (row.tripwires ?? []).map((tripwire) => ({
      kind: tripwire.kind,
      words: explainTripwire(tripwire).slice(0, 500),
    }))
    const payeeId = row.item.payee_id?.trim().slice(0, 100)
    if (tripwires.length === 0 && !payeeId) return
    payees.push({
      position: index + 1,
      ...(payeeId ? { payeeId } : {}),
      payeeKey: payeeKeyOfRow(row).slice(0, 300),
      accountKey: rowAccountKey(row, content.currency).slice(0, 120),
      tripwires,
    })
  })
  return payees
}

/** What the team shows of a version's flagged rows, as one text: equal when the checks are the same. */
export function payeeChecksStory(checks: TeamPayeeChecks | null): string {
  if (!checks?.reported) return 'not reported'
  return [
    `flagged ${checks.flaggedRows}`,
    ...checks.rows.map((row) => storyLine(row.position, row.payeeKey, row.payeeId, row.tripwires)),
  ].join('\n')
}

/** The same story of the checks this desk would share (listed as the team lists them). */
export function rowPayeesStory(payees: readonly TeamRowPayee[]): string {
  const flagged = payees.filter((payee) => payee.tripwires.length > 0)
  const held = (payee: TeamRowPayee) => payee.tripwires.some((tripwire) => isHoldKind(tripwire.kind))
  const listed = [...flagged]
    .sort((a, b) => Number(held(b)) - Number(held(a)) || a.position - b.position)
    .slice(0, LISTED)
  return [
    `flagged ${flagged.length}`,
    ...listed.map((payee) => storyLine(payee.position, payee.payeeKey, payee.payeeId ?? null, payee.tripwires)),
  ].join('\n')
}

function storyLine(
  position: number,
  payeeKey: string,
  payeeId: string | null,
  tripwires: ReadonlyArray<{ kind: string; words: string }>,
): string {
  return `${position}\t${payeeKey}\t${payeeId ?? ''}\t${tripwires.map((t) => `${t.kind}:${t.words}`).join('|')}`
}
