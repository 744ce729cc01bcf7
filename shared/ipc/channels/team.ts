/**
 * Team mode (decision 38): the profile's team connection, who this desk is in the team, the team's
 * runs with their approvals, the audit trail, members and thresholds. Preparing and releasing runs
 * go through main's team service from the bulk run (main-only); what the screens need is here.
 */
import { z } from 'zod'
import type {
  TeamAuditPage,
  TeamAuditVerification,
  TeamChange,
  TeamClaimSummary,
  TeamIdentity,
  TeamMember,
  TeamMemberChange,
  TeamRecentPayoutsPage,
  TeamRun,
  TeamRunChanges,
  TeamRunRowsPage,
  TeamStatus,
  TeamThreshold,
} from '../../domain/team'
import { TEAM_MEMBER_CHANGES, TEAM_ROLES } from '../../domain/team'
import type { RunView } from '../../domain/bulk-run'
import { teamLimitChangeSchema, type TeamLimitsView } from '../../limits/team-limits'
import { noInput, returns } from '../define'
import { checkConfirmationNote, confirmationFields } from '../../payees/confirmations'

const profileId = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9-]+$/, 'lower-case letters, digits and -')
const runId = z
  .string()
  .min(1)
  .max(80)
  .regex(/^[A-Za-z0-9._-]+$/, 'letters, digits, dots, dashes or underscores')
const version = z.number().int().min(1).max(1_000_000)
const contentHash = z.string().regex(/^[0-9a-f]{64}$/, 'a SHA-256 in lower-case hex')
const host = z
  .string()
  .trim()
  .min(1, 'a host is required')
  .max(253)
  .regex(/^[A-Za-z0-9.:\-[\]]+$/, 'a host name or address')
const identifier = z
  .string()
  .trim()
  .min(1)
  .max(63)
  .regex(/^[A-Za-z_][A-Za-z0-9_$-]*$/, 'letters, digits and _')
/** A login of a new member: what payout_desk.add_member accepts. */
const memberLogin = z
  .string()
  .trim()
  .regex(/^[a-z][a-z0-9_]{2,62}$/, '3 to 63 lower-case letters, digits or _, starting with a letter')
const password = z.string().min(8, 'at least 8 characters').max(200)
const currency = z.string().regex(/^[A-Z]{3}$/, 'three capital letters')
const amount = z.string().regex(/^(0|[1-9][0-9]{0,16})\.[0-9]{2}$/, 'an amount with two decimals, such as 5000000.00')

export const teamChannels = {
  /** The active profile's team state: solo, or its connection and who this desk is. */
  'team:status': { input: noInput, result: returns<TeamStatus>() },
  /** Saves a profile's team connection; the password goes to the keychain (omit it to keep the saved one). */
  'team:configure': {
    input: z.strictObject({
      profileId,
      host,
      port: z.number().int().min(1).max(65535),
      database: identifier,
      user: identifier,
      // No CA file path from the renderer: main chooses it (team:chooseCaFile, decision 106).
      password: password.optional(),
    }),
    result: returns<TeamStatus>(),
  },
  /** Opens main's own dialog for the team's CA file, checks it and saves it (cancelled: unchanged). */
  'team:chooseCaFile': { input: z.strictObject({ profileId }), result: returns<TeamStatus>() },
  /** The profile's team connection verifies against the system's CAs again. */
  'team:clearCaFile': { input: z.strictObject({ profileId }), result: returns<TeamStatus>() },
  /** Removes a profile's team connection and password: the profile works alone again. */
  'team:forget': { input: z.strictObject({ profileId }), result: returns<TeamStatus>() },
  'team:connect': { input: noInput, result: returns<TeamStatus>() },
  'team:disconnect': { input: noInput, result: returns<TeamStatus>() },
  /** The team's name, this member and their roles, this desk (asked of the database again). */
  'team:whoami': { input: noInput, result: returns<TeamIdentity>() },

  'team:runs': {
    input: z.strictObject({ filter: z.enum(['all', 'awaiting_me', 'mine', 'open']) }),
    result: returns<TeamRun[]>(),
  },
  'team:run': { input: z.strictObject({ runId }), result: returns<TeamRun>() },
  'team:runRows': {
    input: z.strictObject({
      runId,
      version,
      offset: z.number().int().min(0),
      limit: z.number().int().min(1).max(1000),
    }),
    result: returns<TeamRunRowsPage>(),
  },
  /** What changed between two versions (the Approvals screen: since the version I last saw). */
  'team:runChanges': {
    input: z.strictObject({ runId, fromVersion: version, toVersion: version }),
    result: returns<TeamRunChanges>(),
  },
  'team:markSeen': { input: z.strictObject({ runId, version }), result: returns<null>() },
  /** Approves the version reviewed (its hash), with its total typed by the approver. */
  'team:approve': {
    input: z.strictObject({
      runId,
      version,
      contentHash,
      typedTotal: z
        .string()
        .trim()
        .regex(/^[0-9]{1,19}(\.[0-9]{1,2})?$/, 'the total as digits, such as 1500.00'),
    }),
    result: returns<TeamRun>(),
  },
  'team:reject': {
    input: z.strictObject({ runId, version, reason: z.string().trim().min(1, 'a reason is required').max(500) }),
    result: returns<TeamRun>(),
  },
  /**
   * Records how this member confirmed a held row's changed or shared account (decision 135): the
   * team database refuses a member who prepared or edited the run, and keeps who and when.
   */
  'team:confirmPayee': {
    input: z
      .strictObject({ runId, version, position: z.number().int().min(1).max(100_000), ...confirmationFields })
      .superRefine(checkConfirmationNote),
    result: returns<TeamRun>(),
  },
  'team:claims': { input: z.strictObject({ runId }), result: returns<TeamClaimSummary[]>() },
  /** Shares a bulk run of this desk with the team for approval (created, or revised when it changed). */
  'team:submitRun': { input: z.strictObject({ runId }), result: returns<TeamRun>() },
  /** The team's copy of a bulk run of this desk, or null when it was never shared. */
  'team:runOf': { input: z.strictObject({ runId }), result: returns<TeamRun | null>() },
  /**
   * Releases an approved run from this desk (the one holding the live key): materialised from the
   * team's copy when needed, its hash recomputed, each batch claimed before it leaves.
   */
  'team:release': { input: z.strictObject({ runId }), result: returns<RunView>() },
  /** The team's payouts with a result, every desk's, newest first: a page and the count of all (accounts masked). */
  'team:recentPayouts': {
    input: z.strictObject({
      limit: z.number().int().min(1).max(500),
      offset: z.number().int().min(0).max(10_000_000).default(0),
    }),
    result: returns<TeamRecentPayoutsPage>(),
  },

  'team:audit': {
    input: z.strictObject({ afterSeq: z.number().int().min(0), limit: z.number().int().min(1).max(1000) }),
    result: returns<TeamAuditPage>(),
  },
  /** Checks every link of the audit trail, on this desk and in the database. */
  'team:verifyAudit': { input: noInput, result: returns<TeamAuditVerification>() },

  'team:members': { input: noInput, result: returns<TeamMember[]>() },
  'team:thresholds': { input: noInput, result: returns<TeamThreshold[]>() },
  /** Admin: adds a member (or changes a login's roles); the password leaves main only as a SCRAM verifier. */
  'team:addMember': {
    input: z.strictObject({
      login: memberLogin,
      displayName: z.string().trim().min(1).max(80),
      roles: z.array(z.enum(TEAM_ROLES)).min(1).max(3),
      password: password.nullable(),
    }),
    result: returns<TeamMember[]>(),
  },
  /** What waits for a second admin: the approver or admin role, or a password reset (decision 104). */
  'team:memberChanges': { input: noInput, result: returns<TeamMemberChange[]>() },
  /** Admin: confirms what another admin asked; never one's own request. */
  'team:confirmMemberChange': {
    input: z.strictObject({ login: memberLogin, change: z.enum(TEAM_MEMBER_CHANGES) }),
    result: returns<TeamMemberChange[]>(),
  },
  'team:setMemberActive': {
    input: z.strictObject({ login: memberLogin, active: z.boolean() }),
    result: returns<TeamMember[]>(),
  },
  /** Admin: a run at or above this total needs two approvers; null removes it (then every run needs two). */
  'team:setThreshold': {
    input: z.strictObject({ currency, amount: amount.nullable() }),
    result: returns<TeamThreshold[]>(),
  },
  /** The team's limits, the changes waiting for a second admin, and what this member released today (decision 138). */
  'team:limits': { input: noInput, result: returns<TeamLimitsView>() },
  /** Admin: proposes a change to a limit; it takes effect only once a second admin approves it. */
  'team:proposeLimitChange': { input: teamLimitChangeSchema, result: returns<TeamLimitsView>() },
  /** Admin: approves the change another admin proposed, as shown (`value` is what waits). */
  'team:approveLimitChange': { input: teamLimitChangeSchema, result: returns<TeamLimitsView>() },
  /** Admin: drops a change that waits. */
  'team:withdrawLimitChange': {
    input: teamLimitChangeSchema.pick({ subject: true }),
    result: returns<TeamLimitsView>(),
  },
} as const

export const teamEvents = {
  /** The team connection's state changed (connected, lost, reconnected, solo). */
  'team:connection': returns<TeamStatus>(),
  /** A desk of the team changed something (at commit); `reconnected` after a gap: read again. */
  'team:changed': returns<TeamChange>(),
} as const
