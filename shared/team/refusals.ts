/**
 * Why the team database refused a call (decision 86): the reason its payout_desk.fail() puts in
 * the error's DETAIL, beside a SQLSTATE of class PT and a message written for people. Main carries
 * the reason in a failure's details (`{ sqlstate, reason }`), so a caller or a screen acts on what
 * happened (a stale version: reload; a claim held: wait; a run completed elsewhere: follow it)
 * without reading the text. Each reason belongs to one SQLSTATE; the app's code is that SQLSTATE's.
 * A test keeps this list equal to the reasons the schema's definitions raise.
 */
import type { ErrorCode } from '../result'

export const TEAM_REFUSALS = {
  // PT400: bad input.
  invalid_argument: { sqlstate: 'PT400', code: 'bad_request' },
  missing_argument: { sqlstate: 'PT400', code: 'bad_request' },
  duplicate_reference: { sqlstate: 'PT400', code: 'bad_request' },
  not_in_run: { sqlstate: 'PT400', code: 'bad_request' },
  total_mismatch: { sqlstate: 'PT400', code: 'bad_request' },
  review_invalid: { sqlstate: 'PT400', code: 'bad_request' },
  desk_unregistered: { sqlstate: 'PT400', code: 'bad_request' },
  // PT401, PT403: who may not.
  not_member: { sqlstate: 'PT401', code: 'forbidden' },
  role_missing: { sqlstate: 'PT403', code: 'forbidden' },
  desk_of_another_member: { sqlstate: 'PT403', code: 'forbidden' },
  own_membership: { sqlstate: 'PT403', code: 'forbidden' },
  not_plain_login: { sqlstate: 'PT403', code: 'forbidden' },
  login_not_of_team: { sqlstate: 'PT403', code: 'forbidden' }, // a login this team did not create (decision 104)
  own_request: { sqlstate: 'PT403', code: 'forbidden' }, // a second admin confirms what one asked (decision 104)
  own_run: { sqlstate: 'PT403', code: 'forbidden' },
  own_run_confirmation: { sqlstate: 'PT403', code: 'forbidden' }, // the preparer confirms no account of their run (decision 135)
  confirmation_append_only: { sqlstate: 'PT403', code: 'forbidden' }, // a payee confirmation is evidence
  not_version_maker: { sqlstate: 'PT403', code: 'forbidden' },
  never_held_claim: { sqlstate: 'PT403', code: 'forbidden' },
  audit_append_only: { sqlstate: 'PT403', code: 'forbidden' },
  limit_exceeded: { sqlstate: 'PT403', code: 'forbidden' }, // a team limit refuses it (decision 138)
  limit_needs_approver: { sqlstate: 'PT403', code: 'forbidden' }, // a team limit asks one more approver first
  own_explanation: { sqlstate: 'PT403', code: 'forbidden' }, // a second member confirms an explanation (decision 149)
  recon_append_only: { sqlstate: 'PT403', code: 'forbidden' }, // a reconciliation record is evidence
  // PT404: not found.
  run_not_found: { sqlstate: 'PT404', code: 'not_found' },
  version_not_found: { sqlstate: 'PT404', code: 'not_found' },
  claim_not_found: { sqlstate: 'PT404', code: 'not_found' },
  member_not_found: { sqlstate: 'PT404', code: 'not_found' },
  change_not_found: { sqlstate: 'PT404', code: 'not_found' }, // nothing waits for a second admin
  limit_change_not_found: { sqlstate: 'PT404', code: 'not_found' }, // no change to that limit waits
  explanation_not_found: { sqlstate: 'PT404', code: 'not_found' }, // nothing explained to confirm (decision 149)
  // PT409: the conflicts, one reason each.
  run_exists: { sqlstate: 'PT409', code: 'conflict' }, // a run with that id was shared already
  version_stale: { sqlstate: 'PT409', code: 'conflict' }, // another version is current: read the run again
  run_closed: { sqlstate: 'PT409', code: 'conflict' }, // being released or completed: no more changes
  run_not_draft: { sqlstate: 'PT409', code: 'conflict' }, // only a draft is submitted
  run_not_awaiting_approval: { sqlstate: 'PT409', code: 'conflict' }, // approved, rejected or changed meanwhile
  run_not_approved: { sqlstate: 'PT409', code: 'conflict' }, // only an approved run is released
  run_completed: { sqlstate: 'PT409', code: 'conflict' }, // completed elsewhere: follow it, claim nothing
  claim_final: { sqlstate: 'PT409', code: 'conflict' }, // every payout of the claim is final: follow it
  claim_other_run: { sqlstate: 'PT409', code: 'conflict' }, // the reference is claimed for another run
  claim_payouts_differ: { sqlstate: 'PT409', code: 'conflict' }, // the claim covers other payouts
  payout_claimed: { sqlstate: 'PT409', code: 'conflict' }, // a payout is in another claim
  claim_has_results: { sqlstate: 'PT409', code: 'conflict' }, // something was sent: not given back
  lease_expired: { sqlstate: 'PT409', code: 'conflict' }, // the lease ran out: claim again
  result_final: { sqlstate: 'PT409', code: 'conflict' }, // a final result never changes
  review_fixed: { sqlstate: 'PT409', code: 'conflict' }, // a review is fixed with its version
  payee_not_held: { sqlstate: 'PT409', code: 'conflict' }, // the row waits for no confirmation
  payees_unconfirmed: { sqlstate: 'PT409', code: 'conflict' }, // held rows wait for a confirmation (decision 135)
  desk_mode_fixed: { sqlstate: 'PT409', code: 'conflict' }, // a desk's mode never changes
  desk_mode_unknown: { sqlstate: 'PT409', code: 'conflict' }, // a desk without a mode claims nothing
  run_mode_differs: { sqlstate: 'PT409', code: 'conflict' }, // the run pays in another mode
  limit_unchanged: { sqlstate: 'PT409', code: 'conflict' }, // the limit is that already
  limit_change_differs: { sqlstate: 'PT409', code: 'conflict' }, // the change waiting is not the one shown
  period_closed: { sqlstate: 'PT409', code: 'conflict' }, // a closed period is reopened first (decision 149)
  period_not_closed: { sqlstate: 'PT409', code: 'conflict' }, // nothing to reopen
  service_only_unconfirmed: { sqlstate: 'PT409', code: 'conflict' }, // a payout from elsewhere waits for a second member
  // PT412, PT423.
  hash_mismatch: { sqlstate: 'PT412', code: 'hash_mismatch' },
  claim_held: { sqlstate: 'PT423', code: 'claim_held' }, // another desk holds it, its lease running
  claim_taken_over: { sqlstate: 'PT423', code: 'claim_held' }, // another desk took it over
  claim_not_held: { sqlstate: 'PT423', code: 'claim_held' }, // this desk does not hold it
} as const satisfies Record<string, { sqlstate: `PT${number}`; code: ErrorCode }>

export type TeamRefusalReason = keyof typeof TEAM_REFUSALS

export function isTeamRefusalReason(value: unknown): value is TeamRefusalReason {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(TEAM_REFUSALS, value)
}

/** What main puts in the details of a failure the team database raised. */
export interface TeamRefusalDetails {
  sqlstate: string
  reason?: TeamRefusalReason
}

/** The reason of a failure (its details), when the team database gave one. */
export function teamRefusalReason(error: { details?: unknown } | null | undefined): TeamRefusalReason | undefined {
  const reason = (error?.details as { reason?: unknown } | undefined)?.reason
  return isTeamRefusalReason(reason) ? reason : undefined
}
