/**
 * Every team operation as one call of the team database over a live session, for one desk. The
 * database enforces the rules (roles, no self-approval, two approvers at the threshold, claims,
 * final results); this module hashes what the desk holds, calls, and checks the answers. The team
 * service (team-service.ts) gives it a session only while connected.
 *
 * Size: one thin method per team-database function or view (some thirty), each a call and the check
 * of its answer; nothing here decides, so it grows with the schema's surface, not with logic.
 */
import type { PriorPayout } from '../../../../shared/domain/bulk'
import type { ProfileMode } from '../../../../shared/domain/profiles'
import type {
  TeamAuditPage,
  TeamAuditVerification,
  TeamClaim,
  TeamClaimKind,
  TeamClaimSummary,
  TeamIdentity,
  TeamMember,
  TeamMemberChange,
  TeamMemberChangeKind,
  TeamPayoutResult,
  TeamRecentPayout,
  TeamRole,
  TeamRun,
  TeamRunChanges,
  TeamRunContent,
  TeamRunFilter,
  TeamRowPayee,
  TeamRunRowsPage,
  TeamThreshold,
} from '../../../../shared/domain/team'
import type { ConfirmationMethod } from '../../../../shared/payees/confirmations'
import { runReviewSchema, type RunReviewFigures } from '../../../../shared/bulk/review-figures'
import { awaitsApprovalOf, type TeamMemberRoles } from '../../../../shared/team/awaits-approval'
import { withTeamRunActions } from './team-run-actions'
import { verifyAuditChain } from '../../../../shared/team/audit-chain'
import { runContentHash, runContentProblem } from '../../../../shared/team/run-content'
import { diffRunVersions } from '../../../../shared/team/run-changes'
import { AppFailure } from '../../../../shared/result'
import {
  auditCheckAnswer,
  auditRow,
  claimAnswer,
  claimBatchesAnswer,
  claimSummaryRow,
  identityAnswer,
  memberChangeRow,
  memberRow,
  paymentMemoryRow,
  read,
  recentPayoutRow,
  runAnswer,
  runRowAnswer,
  thresholdRow,
} from './team-answers'
import { scramVerifier } from './scram-verifier'
import { createTeamLimitOperations } from './team-limit-operations'
import { createTeamReconOperations } from './team-recon-operations'
import { teamFailure } from './team-errors'
import type { TeamSession } from './team-session'
import { z } from 'zod'
import { PAYOUT_ROW_FIELDS } from '../../../../shared/domain/payout-row'

export const DEFAULT_LEASE_SECONDS = 120

/** A review as the database takes it (jsonb from text), its shape checked here first to name what is wrong. */
function reviewText(review: RunReviewFigures): string {
  const checked = runReviewSchema.safeParse(review)
  if (!checked.success) {
    const issue = checked.error.issues[0]
    throw new AppFailure(
      'bad_request',
      `The run's review figures cannot be shared: ${issue?.path.join('.') || 'the review'}: ${issue?.message ?? 'not valid'}.`,
    )
  }
  return JSON.stringify(checked.data)
}
const AUDIT_PAGE = 5000

export interface ClaimRequest {
  runId: string
  version: number
  /**
   * The content this desk is about to send, as it holds it: its hash is recomputed here and must
   * be the approved version's, or nothing is claimed (hash_mismatch).
   */
  content: TeamRunContent
  /**
   * The hash of `content` when the caller has just computed it from that very content (a release
   * hashes its run once, not once per batch); recomputed here otherwise.
   */
  contentHash?: string
  /** The batch reference, or the payout reference for a single payout. */
  reference: string
  kind: TeamClaimKind
  /** The payout references the batch carries (one for a payout). */
  payouts: string[]
  leaseSeconds?: number
}

/** Several batches of one run claimed in one transaction (claim_batches, migration 004). */
export interface ClaimBatchesRequest extends Omit<ClaimRequest, 'reference' | 'kind' | 'payouts'> {
  batches: Array<{ reference: string; payouts: string[] }>
}

/** Each batch asked for: the claim made, or why it was refused (the others are claimed all the same). */
export type ClaimBatchAnswer = { reference: string; claim: TeamClaim } | { reference: string; refused: AppFailure }

/** The content as the database takes it: with the payee checks of its rows when the desk has them. */
function withPayees(content: TeamRunContent, payees: TeamRowPayee[] | undefined): unknown {
  return payees ? { ...content, payees } : content
}

export type TeamOperations = ReturnType<typeof createTeamOperations>

/**
 * `mode` is the mode of the profile this desk pays with: the desk registers with it, and the team
 * refuses a claim of a run in another mode (migration 008).
 */
export function createTeamOperations(session: TeamSession, deskId: string, mode: ProfileMode) {
  /** Who this desk's member is, once it said (whoami): each run answered carries what they may do. */
  let member: TeamMemberRoles | null = null

  async function runCall(name: string, args: unknown[], what: string): Promise<TeamRun> {
    return withTeamRunActions(read(runAnswer, await session.call(name, args), what), member)
  }

  async function hashOf(content: TeamRunContent): Promise<string> {
    const problem = runContentProblem(content)
    if (problem) throw new AppFailure('bad_request', `The run cannot be shared with the team: ${problem}.`)
    return runContentHash(content)
  }

  async function versionRows(runId: string, version: number, offset = 0, limit = 200_000) {
    const rows = await session.rows(
      `SELECT position, ${PAYOUT_ROW_FIELDS.join(', ')}
         FROM payout_desk.team_run_rows WHERE run_id = $1 AND version = $2 ORDER BY position OFFSET $3 LIMIT $4`,
      [runId, version, offset, limit],
    )
    return rows.map((row) => read(runRowAnswer, row, `the rows of run ${runId}`))
  }

  async function run(runId: string): Promise<TeamRun> {
    const [row] = await session.rows<{ run: unknown }>('SELECT run FROM payout_desk.team_runs WHERE run_id = $1', [
      runId,
    ])
    if (!row) throw new AppFailure('not_found', `There is no run ${runId} in this team.`)
    return withTeamRunActions(read(runAnswer, row.run, `run ${runId}`), member)
  }

  return {
    deskId,
    mode,
    ...createTeamLimitOperations(session),
    ...createTeamReconOperations(session, deskId),

    /** Registers this desk and its mode with the team (once; later only seen again) and says who this is. */
    async identify(label: string): Promise<TeamIdentity> {
      await session.call('register_desk', [deskId, label, mode])
      return this.whoami()
    },

    async whoami(): Promise<TeamIdentity> {
      const answer = read(identityAnswer, await session.call('whoami', []), 'who you are')
      member = answer.member
      return {
        team: answer.team ?? { name: '(unnamed team)' },
        member: answer.member,
        deskId,
        schemaVersion: answer.schemaVersion ?? 0,
      }
    },

    // ---- Preparing (preparer)

    /**
     * Shares a run as version 1. With a review (what the preparer's desk showed: control total,
     * name checks, fees), it is stored with the version in the same transaction (migration 005).
     */
    async createRun(input: {
      runId: string
      label: string
      content: TeamRunContent
      review?: RunReviewFigures
      /** The payee checks of its rows (decision 135), stored with the version outside its hash. */
      payees?: TeamRowPayee[]
    }): Promise<TeamRun> {
      const hash = await hashOf(input.content)
      // Always the six-argument call (decision 105); no review: NULL, shown to approvers as none.
      const args = [
        input.runId,
        input.label,
        deskId,
        withPayees(input.content, input.payees),
        hash,
        input.review ? reviewText(input.review) : null,
      ]
      return runCall('create_run', args, `run ${input.runId}`)
    },

    /** A new version of the run (with its review, when given); approvals of the old one are void. */
    async reviseRun(input: {
      runId: string
      baseVersion: number
      content: TeamRunContent
      review?: RunReviewFigures
      payees?: TeamRowPayee[]
    }): Promise<TeamRun> {
      const hash = await hashOf(input.content)
      const args = [
        input.runId,
        input.baseVersion,
        deskId,
        withPayees(input.content, input.payees),
        hash,
        input.review ? reviewText(input.review) : null,
      ]
      return runCall('revise_run', args, `run ${input.runId}`)
    },

    submitRun(input: { runId: string; version: number; contentHash: string }): Promise<TeamRun> {
      return runCall('submit_run', [input.runId, input.version, input.contentHash, deskId], `run ${input.runId}`)
    },

    /**
     * Records how this member confirmed a held row's account (decision 135). The database refuses
     * a member who prepared or edited the run, whatever the screen offered.
     */
    confirmPayee(input: {
      runId: string
      version: number
      position: number
      method: ConfirmationMethod
      note?: string
    }): Promise<TeamRun> {
      return runCall(
        'confirm_payee',
        [input.runId, input.version, input.position, input.method, input.note ?? null, deskId],
        `run ${input.runId}`,
      )
    },

    // ---- Checking (approver)

    approveRun(input: { runId: string; version: number; contentHash: string; typedTotal: string }): Promise<TeamRun> {
      return runCall(
        'approve_run',
        [input.runId, input.version, input.contentHash, input.typedTotal, deskId],
        `run ${input.runId}`,
      )
    },

    rejectRun(input: { runId: string; version: number; reason: string }): Promise<TeamRun> {
      return runCall('reject_run', [input.runId, input.version, input.reason, deskId], `run ${input.runId}`)
    },

    async markSeen(input: { runId: string; version: number }): Promise<void> {
      await session.call('mark_run_seen', [input.runId, input.version])
    },

    // ---- Reading runs

    run,

    async runs(filter: TeamRunFilter, member: TeamMemberRoles): Promise<TeamRun[]> {
      const me = member.login
      const rows = await session.rows<{ run: unknown }>(
        `SELECT run FROM payout_desk.team_runs ORDER BY (run->>'updatedAt') DESC LIMIT 500`,
      )
      const runs = rows.map((row) => withTeamRunActions(read(runAnswer, row.run, 'the team runs'), member))
      return runs.filter((item) => {
        if (filter === 'mine') return item.contributors.includes(me) || item.preparedBy === me
        if (filter === 'open') return item.state !== 'completed'
        if (filter === 'awaiting_me') return awaitsApprovalOf(item, member)
        return true
      })
    },

    async runRows(input: { runId: string; version: number; offset: number; limit: number }): Promise<TeamRunRowsPage> {
      const [totals] = await session.rows<{ total: string }>(
        'SELECT count(*)::text AS total FROM payout_desk.team_run_rows WHERE run_id = $1 AND version = $2',
        [input.runId, input.version],
      )
      return {
        runId: input.runId,
        version: input.version,
        offset: input.offset,
        total: Number(totals?.total ?? 0),
        rows: await versionRows(input.runId, input.version, input.offset, input.limit),
      }
    },

    /** A version's whole content as the team stores it (what a releasing desk sends). */
    async runContent(runId: string, version: number): Promise<TeamRunContent & { contentHash: string }> {
      const [head] = await session.rows<{
        currency: string
        merchant_bears_cost: boolean
        description: string
        content_hash: string
      }>(
        `SELECT currency, merchant_bears_cost, description, content_hash FROM payout_desk.team_run_versions
          WHERE run_id = $1 AND version = $2`,
        [runId, version],
      )
      if (!head) throw new AppFailure('not_found', `Run ${runId} has no version ${version}.`)
      const rows = (await versionRows(runId, version)).map(({ position: _position, ...row }) => row)
      return {
        currency: head.currency,
        merchantBearsCost: head.merchant_bears_cost,
        description: head.description,
        rows,
        contentHash: head.content_hash,
      }
    },

    /** The team database's own canonical text of a version (to prove both sides hash alike). */
    async runContentText(runId: string, version: number): Promise<string> {
      return z.string().parse(await session.call('run_content', [runId, version]))
    },

    async runChanges(input: { runId: string; fromVersion: number; toVersion: number }): Promise<TeamRunChanges> {
      const heads = await session.rows<{ version: number; currency: string; merchant_bears_cost: boolean }>(
        `SELECT version, currency, merchant_bears_cost FROM payout_desk.team_run_versions
          WHERE run_id = $1 AND version = ANY($2::int[])`,
        [input.runId, [input.fromVersion, input.toVersion]],
      )
      const from = heads.find((head) => head.version === input.fromVersion)
      const to = heads.find((head) => head.version === input.toVersion)
      if (!from || !to)
        throw new AppFailure(
          'not_found',
          `Run ${input.runId} has no version ${!from ? input.fromVersion : input.toVersion}.`,
        )
      return diffRunVersions(
        {
          runId: input.runId,
          version: input.fromVersion,
          currency: from.currency,
          merchantBearsCost: from.merchant_bears_cost,
        },
        await versionRows(input.runId, input.fromVersion),
        {
          runId: input.runId,
          version: input.toVersion,
          currency: to.currency,
          merchantBearsCost: to.merchant_bears_cost,
        },
        await versionRows(input.runId, input.toVersion),
      )
    },

    // ---- Releasing (approver)

    async claim(input: ClaimRequest): Promise<TeamClaim> {
      const hash = input.contentHash ?? (await hashOf(input.content))
      const references = new Set(input.content.rows.map((row) => row.reference))
      const stranger = input.payouts.find((reference) => !references.has(reference))
      if (stranger) throw new AppFailure('bad_request', `${stranger} is not a payout of the content being sent.`)
      return read(
        claimAnswer,
        await session.call('claim', [
          input.runId,
          input.version,
          hash,
          input.reference,
          input.kind,
          input.payouts,
          deskId,
          input.leaseSeconds ?? DEFAULT_LEASE_SECONDS,
        ]),
        `the claim on ${input.reference}`,
      )
    },

    /**
     * Claims several batches of one run in one transaction (one commit instead of one each). A
     * problem of the run (not approved, another version or hash, no role) refuses them all; a
     * batch held by another desk or otherwise refused is answered as refused, the others claimed.
     */
    async claimBatches(input: ClaimBatchesRequest): Promise<ClaimBatchAnswer[]> {
      const hash = input.contentHash ?? (await hashOf(input.content))
      const references = new Set(input.content.rows.map((row) => row.reference))
      for (const batch of input.batches) {
        const stranger = batch.payouts.find((reference) => !references.has(reference))
        if (stranger) throw new AppFailure('bad_request', `${stranger} is not a payout of the content being sent.`)
      }
      const answers = read(
        claimBatchesAnswer,
        await session.call('claim_batches', [
          input.runId,
          input.version,
          hash,
          JSON.stringify(input.batches),
          deskId,
          input.leaseSeconds ?? DEFAULT_LEASE_SECONDS,
        ]),
        `the claims on ${input.batches.length} batches of run ${input.runId}`,
      )
      return answers.map((answer) =>
        'claim' in answer
          ? { reference: answer.reference, claim: answer.claim }
          : {
              reference: answer.reference,
              refused: teamFailure(
                Object.assign(new Error(answer.refused.message), {
                  code: answer.refused.sqlstate,
                  detail: answer.refused.reason,
                }),
                `the claim on ${answer.reference}`,
              ),
            },
      )
    },

    async renewClaim(input: { reference: string; leaseSeconds?: number }): Promise<TeamClaim> {
      return read(
        claimAnswer,
        await session.call('renew_claim', [input.reference, deskId, input.leaseSeconds ?? DEFAULT_LEASE_SECONDS]),
        `the claim on ${input.reference}`,
      )
    },

    async releaseClaim(input: { reference: string; reason: string }): Promise<void> {
      await session.call('release_claim', [input.reference, deskId, input.reason])
    },

    async recordResults(input: { reference: string; results: TeamPayoutResult[] }): Promise<TeamClaim> {
      return read(
        claimAnswer,
        await session.call('record_results', [input.reference, deskId, JSON.stringify(input.results)]),
        `the results of ${input.reference}`,
      )
    },

    async claims(runId: string): Promise<TeamClaimSummary[]> {
      const rows = await session.rows(
        `SELECT * FROM payout_desk.team_claims WHERE run_id = $1 ORDER BY claimed_at, reference`,
        [runId],
      )
      return rows.map((row) => read(claimSummaryRow, row, `the claims of run ${runId}`))
    },

    // ---- What the team shares

    /**
     * Payouts any desk of the team sent (or may have) in `mode`, for the already-paid check: the
     * memory of each mode is its own, so a rehearsal (Sandbox, test) never says a Live row was paid,
     * nor Live a rehearsal's (decision 61).
     */
    async paymentMemory(mode: ProfileMode, since?: Date): Promise<PriorPayout[]> {
      const rows = await session.rows(
        `SELECT reference, bank_code, account_number, amount, sent_at, run_label FROM payout_desk.team_payment_memory
          WHERE mode = $1 AND ($2::timestamptz IS NULL OR first_sent_at >= $2::timestamptz) ORDER BY first_sent_at`,
        [mode, since?.toISOString() ?? null],
      )
      return rows.map((row) => read(paymentMemoryRow, row, 'the payment memory'))
    },

    async recentPayouts(limit: number, offset = 0): Promise<TeamRecentPayout[]> {
      const rows = await session.rows(
        `SELECT * FROM payout_desk.team_recent_payouts ORDER BY outcome_time DESC, reference LIMIT $1 OFFSET $2`,
        [limit, offset],
      )
      return rows.map((row) => read(recentPayoutRow, row, 'the recent payouts'))
    },

    /** How many payouts with a result the team has (the recent payouts' count). */
    async recentPayoutCount(): Promise<number> {
      const [row] = await session.rows<{ total: string }>(
        'SELECT count(*)::text AS total FROM payout_desk.team_recent_payouts',
      )
      return Number(row?.total ?? 0)
    },

    async audit(input: { afterSeq: number; limit: number }): Promise<TeamAuditPage> {
      const rows = await session.rows(
        `SELECT seq, at, actor, desk_id, kind, run_id, subject, details, prev_hash, hash
           FROM payout_desk.audit_trail WHERE seq > $1 ORDER BY seq LIMIT $2`,
        [input.afterSeq, input.limit],
      )
      const [last] = await session.rows<{ seq: string | null }>(
        'SELECT max(seq)::text AS seq FROM payout_desk.audit_trail',
      )
      return { entries: rows.map((row) => read(auditRow, row, 'the audit trail')), lastSeq: Number(last?.seq ?? 0) }
    },

    /** Checks the whole trail here (page by page) and asks the database to check it too. */
    async verifyAudit(): Promise<TeamAuditVerification> {
      let previous = { seq: 0, hash: '0'.repeat(64) }
      let desk = { ok: true, checked: 0, firstBroken: null as { seq: number; reason: string } | null }
      for (;;) {
        const rows = await session.rows(
          `SELECT seq, at, actor, desk_id, kind, run_id, subject, details, prev_hash, hash
             FROM payout_desk.audit_trail WHERE seq > $1 ORDER BY seq LIMIT $2`,
          [previous.seq, AUDIT_PAGE],
        )
        const entries = rows.map((row) => read(auditRow, row, 'the audit trail'))
        const page = await verifyAuditChain(entries, previous)
        desk = { ok: page.ok, checked: desk.checked + page.checked, firstBroken: page.firstBroken }
        const last = entries.at(-1)
        if (!page.ok || !last || entries.length < AUDIT_PAGE) break
        previous = { seq: last.seq, hash: last.hash }
      }
      const server = read(auditCheckAnswer, await session.call('audit_verify', []), 'the audit check')
      return {
        desk,
        server,
        agree: desk.ok === server.ok && (desk.firstBroken?.seq ?? null) === (server.firstBroken?.seq ?? null),
      }
    },

    // ---- Members and thresholds (admin)

    async members(): Promise<TeamMember[]> {
      const rows = await session.rows('SELECT * FROM payout_desk.team_members ORDER BY login')
      return rows.map((row) => read(memberRow, row, 'the members'))
    },

    async thresholds(): Promise<TeamThreshold[]> {
      const rows = await session.rows('SELECT * FROM payout_desk.team_thresholds ORDER BY currency')
      return rows.map((row) => read(thresholdRow, row, 'the thresholds'))
    },

    /** The password becomes a SCRAM verifier here: the server never sees it. */
    async addMember(input: {
      login: string
      displayName: string
      roles: TeamRole[]
      password: string | null
    }): Promise<void> {
      await session.call('add_member', [
        input.login,
        input.displayName,
        input.roles,
        input.password === null ? null : scramVerifier(input.password),
      ])
    },

    /** What waits for a second admin (decision 104), oldest first. */
    async memberChanges(): Promise<TeamMemberChange[]> {
      const rows = await session.rows(
        'SELECT * FROM payout_desk.team_member_changes ORDER BY requested_at, login, change',
      )
      return rows.map((row) => read(memberChangeRow, row, 'the changes awaiting a second admin'))
    },

    async confirmMemberChange(input: { login: string; change: TeamMemberChangeKind }): Promise<void> {
      await session.call('confirm_member_change', [input.login, input.change])
    },

    async setMemberActive(input: { login: string; active: boolean }): Promise<void> {
      await session.call('set_member_active', [input.login, input.active])
    },

    async setThreshold(input: { currency: string; amount: string | null }): Promise<void> {
      await session.call('set_threshold', [input.currency, input.amount])
    },
  }
}
