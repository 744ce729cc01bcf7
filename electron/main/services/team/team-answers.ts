/**
 * The team database's answers, checked before anything is built on them (a database of another
 * version, or altered by hand, must give a clear error rather than a wrong screen).
 */
import { z } from 'zod'
import { PAYOUT_ROW_FIELDS } from '../../../../shared/domain/payout-row'
import type { PayoutRowField } from '../../../../shared/domain/payout-row'
import { PAYOUT_OUTCOMES, TEAM_MEMBER_CHANGES, TEAM_ROLES, TEAM_RUN_STATES } from '../../../../shared/domain/team'
import { runReviewSchema } from '../../../../shared/bulk/review-figures'
import { CONFIRMATION_METHODS } from '../../../../shared/payees/confirmations'
import { TRIPWIRE_KINDS } from '../../../../shared/payees/tripwires'
import { AppFailure } from '../../../../shared/result'

const iso = z.string()
const count = z.coerce.number().int().nonnegative()

export const identityAnswer = z.object({
  team: z.object({ name: z.string() }).nullable(),
  member: z.object({ login: z.string(), displayName: z.string(), roles: z.array(z.enum(TEAM_ROLES)) }),
  schemaVersion: count.nullable(),
})

const decision = z.object({ by: z.string(), at: iso })

const tripwireKind = z.enum(TRIPWIRE_KINDS)
const teamTripwire = z.object({ kind: tripwireKind, words: z.string() })

/** A version's payee checks and confirmations (decision 135); the account's key stays in the database. */
const payeeChecksAnswer = z.object({
  reported: z.boolean(),
  counts: z.object(
    Object.fromEntries(TRIPWIRE_KINDS.map((kind) => [kind, count])) as Record<
      (typeof TRIPWIRE_KINDS)[number],
      typeof count
    >,
  ),
  flaggedRows: count,
  held: count,
  confirmed: count,
  rows: z.array(
    z.object({
      position: count,
      reference: z.string(),
      name: z.string(),
      payeeId: z.string().nullable(),
      payeeKey: z.string(),
      tripwires: z.array(teamTripwire),
      heldFor: z.array(tripwireKind),
      held: z.boolean(),
      confirmation: z
        .object({
          method: z.enum(CONFIRMATION_METHODS),
          note: z.string().nullable(),
          by: z.string(),
          at: iso,
          runId: z.string(),
          version: count,
          kinds: z.array(tripwireKind),
        })
        .nullable(),
    }),
  ),
  more: count,
})

export const runAnswer = z.object({
  runId: z.string(),
  label: z.string(),
  state: z.enum(TEAM_RUN_STATES),
  version: count,
  preparedBy: z.string(),
  createdAt: iso,
  updatedAt: iso,
  currency: z.string(),
  merchantBearsCost: z.boolean(),
  description: z.string(),
  rows: count,
  total: z.string(),
  contentHash: z.string(),
  versionBy: z.string(),
  versionAt: iso,
  submittedAt: iso.nullable(),
  approvedAt: iso.nullable(),
  approvalsRequired: z.union([z.literal(1), z.literal(2), z.literal(3)]),
  approvals: z.array(decision),
  /** A team limit asks one more approver (decision 138); absent before schema 12. */
  limitAsksApprover: z.boolean().optional(),
  rejection: decision.extend({ reason: z.string(), version: count }).nullable(),
  contributors: z
    .array(z.string())
    .nullable()
    .transform((value) => value ?? []),
  releasedBy: z.array(z.string()),
  lastSeenVersion: count.nullable(),
  /** Absent before migration 005; null for a version shared without one. */
  review: runReviewSchema
    .nullable()
    .optional()
    .transform((value) => value ?? null),
  /** What the database computed from the version's rows (decision 105); absent before schema 10. */
  checked: z
    .object({
      payouts: count,
      total: z.string(),
      currency: z.string(),
      repeatedPayouts: count,
      sheetTotal: z.object({ sheet: z.string(), difference: z.string() }).nullable(),
      noMatchOutside: count,
    })
    .nullable()
    .optional()
    .transform((value) => value ?? null),
  /** Absent before schema 11. */
  payeeChecks: payeeChecksAnswer
    .nullable()
    .optional()
    .transform((value) => value ?? null),
})

/** A payout row's fields (payout-row.ts), each text. */
const payoutRowAnswer = Object.fromEntries(PAYOUT_ROW_FIELDS.map((field) => [field, z.string()])) as {
  [F in PayoutRowField]: z.ZodString
}

export const runRowAnswer = z.object({ position: count, ...payoutRowAnswer })

export const claimAnswer = z.object({
  grant: z.enum(['new', 'renewed', 'takeover', 'recorded']),
  reference: z.string(),
  kind: z.enum(['batch', 'payout']),
  runId: z.string(),
  version: count,
  state: z.enum(['held', 'done', 'released']),
  holder: z.string(),
  deskId: z.string(),
  claimedAt: iso,
  leaseUntil: iso,
  takeovers: count,
  items: z.array(z.object({ reference: z.string(), position: count, outcome: z.enum(PAYOUT_OUTCOMES).nullable() })),
  previous: z.object({ holder: z.string(), deskId: z.string(), leaseUntil: iso }).nullable(),
  mustVerifyFirst: z.boolean(),
})

/** The answer to claim_batches: each reference asked for, claimed or refused on its own. */
export const claimBatchesAnswer = z.array(
  z.union([
    z.object({ reference: z.string(), claim: claimAnswer }),
    z.object({
      reference: z.string(),
      refused: z.object({ sqlstate: z.string(), reason: z.string().nullable(), message: z.string() }),
    }),
  ]),
)

export const claimSummaryRow = z
  .object({
    reference: z.string(),
    kind: z.enum(['batch', 'payout']),
    run_id: z.string(),
    version: count,
    state: z.enum(['held', 'done', 'released']),
    holder: z.string(),
    holder_desk: z.string(),
    claimed_at: iso,
    lease_until: iso,
    lease_expired: z.boolean(),
    takeovers: count,
    payouts: count,
    payout_references: z.array(z.string()),
  })
  .transform((row) => ({
    reference: row.reference,
    kind: row.kind,
    runId: row.run_id,
    version: row.version,
    state: row.state,
    holder: row.holder,
    deskId: row.holder_desk,
    claimedAt: row.claimed_at,
    leaseUntil: row.lease_until,
    leaseExpired: row.lease_expired,
    takeovers: row.takeovers,
    payouts: row.payouts,
    payoutReferences: row.payout_references,
  }))

export const auditRow = z
  .object({
    seq: count,
    at: iso,
    actor: z.string(),
    desk_id: z.string().nullable(),
    kind: z.string(),
    run_id: z.string().nullable(),
    subject: z.string().nullable(),
    details: z.string(),
    prev_hash: z.string(),
    hash: z.string(),
  })
  .transform((row) => ({
    seq: row.seq,
    at: row.at,
    actor: row.actor,
    deskId: row.desk_id,
    kind: row.kind,
    runId: row.run_id,
    subject: row.subject,
    details: row.details,
    prevHash: row.prev_hash,
    hash: row.hash,
  }))

export const auditCheckAnswer = z
  .object({
    ok: z.boolean(),
    checked: count,
    firstBroken: z.object({ seq: count, reason: z.string() }).nullable().optional(),
  })
  .transform((value) => ({ ok: value.ok, checked: value.checked, firstBroken: value.firstBroken ?? null }))

export const memberChangeRow = z
  .object({
    login: z.string(),
    display_name: z.string(),
    change: z.enum(TEAM_MEMBER_CHANGES),
    requested_by: z.string(),
    requested_at: iso,
  })
  .transform((row) => ({
    login: row.login,
    displayName: row.display_name,
    change: row.change,
    requestedBy: row.requested_by,
    requestedAt: row.requested_at,
  }))

export const memberRow = z
  .object({
    login: z.string(),
    display_name: z.string(),
    roles: z.array(z.enum(TEAM_ROLES)),
    active: z.boolean(),
    added_at: iso,
  })
  .transform((row) => ({
    login: row.login,
    displayName: row.display_name,
    roles: row.roles,
    active: row.active,
    addedAt: row.added_at,
  }))

export const thresholdRow = z
  .object({ currency: z.string(), amount: z.string(), set_by: z.string(), set_at: iso })
  .transform((row) => ({ currency: row.currency, amount: row.amount, setBy: row.set_by, setAt: row.set_at }))

export const paymentMemoryRow = z
  .object({
    reference: z.string(),
    bank_code: z.string(),
    account_number: z.string(),
    amount: z.string(),
    sent_at: iso,
    run_label: z.string(),
  })
  .transform((row) => ({
    reference: row.reference,
    bank_code: row.bank_code,
    account_number: row.account_number,
    amount: row.amount,
    sentAt: row.sent_at,
    runLabel: row.run_label,
  }))

export const recentPayoutRow = z
  .object({
    reference: z.string(),
    run_id: z.string(),
    run_label: z.string(),
    amount: z.string(),
    currency: z.string(),
    bank_code: z.string(),
    account_number: z.string(),
    customer_name: z.string(),
    outcome: z.enum(PAYOUT_OUTCOMES),
    outcome_at: iso,
    message: z.string().nullable(),
    released_by: z.string(),
    desk_id: z.string(),
    desk_label: z.string().nullable().optional(),
  })
  .transform((row) => ({
    reference: row.reference,
    runId: row.run_id,
    runLabel: row.run_label,
    amount: row.amount,
    currency: row.currency,
    bankCode: row.bank_code,
    accountNumber: row.account_number,
    customerName: row.customer_name,
    outcome: row.outcome,
    at: row.outcome_at,
    message: row.message,
    releasedBy: row.released_by,
    deskId: row.desk_id,
    deskLabel: row.desk_label ?? row.desk_id,
  }))

/** Parses an answer, or names what the database sent that this app cannot read. */
export function read<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const parsed = schema.safeParse(value)
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]
  throw new AppFailure(
    'bad_response',
    `The team database answered ${what} in a form this app cannot read (${issue ? `${issue.path.join('.')}: ${issue.message}` : 'invalid'}). Is its schema at the version this app expects?`,
  )
}
