/**
 * Team mode (decision 38): several desks, one truth in a shared PostgreSQL database that enforces
 * maker-checker approval and claims. These are the shapes that cross IPC and that main's team
 * service (electron/main/services/team) answers; solo mode (no team connection) uses none of them.
 *
 * Size: every shape of a team run, its rows, checks, payee checks, limits' refusals and members
 * that crosses IPC, in one place so main and the screens read one definition (types only).
 */
import type { RunReviewFigures } from '../bulk/review-figures'
import type { RunContent } from './bulk-run'
import type { PayoutRowField, PayoutRowValues } from './payout-row'
import type { ConfirmationMethod } from '../payees/confirmations'
import type { TripwireKind } from '../payees/tripwires'

export const TEAM_ROLES = ['preparer', 'approver', 'admin'] as const
export type TeamRole = (typeof TEAM_ROLES)[number]

/**
 * draft: being prepared (a new version after every edit). awaiting_approval: submitted.
 * approved: as many different approvers as its total requires approved its current version.
 * rejected: an approver rejected it, with a reason. releasing: a desk claimed part of it.
 * completed: every payout has a final result.
 */
export const TEAM_RUN_STATES = ['draft', 'awaiting_approval', 'approved', 'rejected', 'releasing', 'completed'] as const
export type TeamRunState = (typeof TEAM_RUN_STATES)[number]

/** What became of one claimed payout. paid, failed and refused are final. */
export const PAYOUT_OUTCOMES = ['sent', 'accepted', 'refused', 'unknown', 'paid', 'failed'] as const
export type PayoutOutcome = (typeof PAYOUT_OUTCOMES)[number]
export const FINAL_PAYOUT_OUTCOMES: readonly PayoutOutcome[] = ['paid', 'failed', 'refused']

/**
 * solo: this profile has no team connection (the default: the local journal only).
 * disconnected: it has one and the user disconnected. connecting, connected: as said.
 * lost: the connection dropped; the desk reconnects by itself and claims nothing meanwhile.
 */
export const TEAM_CONNECTION_STATES = ['solo', 'disconnected', 'connecting', 'connected', 'lost'] as const
export type TeamConnectionState = (typeof TEAM_CONNECTION_STATES)[number]

/** How a profile reaches its team's database (the password is in the OS keychain). */
export interface TeamConnectionDraft {
  host: string
  port: number
  database: string
  user: string
  /** A CA certificate file (PEM) to verify the server with; the system's CAs when null. */
  caFile: string | null
}

/** verify-full: TLS with the certificate chain and host name checked. none: loopback only. */
export type TeamTlsMode = 'verify-full' | 'none'

export interface TeamConnectionView extends TeamConnectionDraft {
  tls: TeamTlsMode
  passwordConfigured: boolean
  /** This installation's desk id for the profile: claims name it. */
  deskId: string
}

export interface TeamIdentity {
  team: { name: string }
  member: { login: string; displayName: string; roles: TeamRole[] }
  deskId: string
  schemaVersion: number
}

export interface TeamStatus {
  profileId: string
  state: TeamConnectionState
  connection: TeamConnectionView | null
  /** Known once connected; kept while the connection is lost. */
  identity: TeamIdentity | null
  /** When the state began (ISO 8601). */
  since: string
  /** Why the last connection failed or was lost. */
  message?: string
}

/** A change another desk (or this one) made, as the database announced it. */
export interface TeamChange {
  seq: number
  kind: string
  runId: string | null
  subject: string | null
  actor: string
  at: string
}

// ---- Runs

/** One payout of a run, as hashed and as the team stores it (BulkItem without the sheet's row). */
/** A payout row as the team stores it (payout-row.ts); its amount has two places, more than zero ("1500.00"). */
export type TeamRunContentRow = PayoutRowValues

/** What a version of a run is (a run's content, owned by bulk): the approval binds to the hash of exactly this. */
export type TeamRunContent = RunContent

export interface TeamDecisionView {
  by: string
  at: string
}

export interface TeamRejection extends TeamDecisionView {
  reason: string
  version: number
}

/**
 * What a screen may offer on a team run, for the member asking (decision 115): submit (a preparer,
 * a draft), approve and reject (an approver who neither prepared nor edited it, while it awaits
 * approval), release (an approver, once approved). Computed in main by team-run-actions.ts, which
 * main's own checks use too; the team database enforces the same when asked.
 */
export const TEAM_RUN_ACTIONS = ['submit', 'approve', 'reject', 'release'] as const
export type TeamRunAction = (typeof TEAM_RUN_ACTIONS)[number]
export type TeamRunActions = Record<TeamRunAction, boolean>

/** A team run as the team database answers it, before main says what it allows. */
export type TeamRunRecord = Omit<TeamRun, 'can'>

export interface TeamRun {
  runId: string
  label: string
  state: TeamRunState
  version: number
  preparedBy: string
  createdAt: string
  updatedAt: string
  currency: string
  merchantBearsCost: boolean
  description: string
  rows: number
  /** Exact decimal sum of the current version's amounts. */
  total: string
  contentHash: string
  versionBy: string
  versionAt: string
  submittedAt: string | null
  approvedAt: string | null
  /** As its total requires (one or two), and one more for a row above a per-payout maximum asking one (decision 138). */
  approvalsRequired: 1 | 2 | 3
  /** Approvals of the current version. */
  approvals: TeamDecisionView[]
  /**
   * A team limit on this run's currency (daily total or count) or the sending hours asks one more
   * approver instead of refusing (decision 138): an approved run may take an approval more before
   * it is released past it. Absent from a database before schema 12.
   */
  limitAsksApprover?: boolean
  /** The latest rejection of any version (its version says which). */
  rejection: TeamRejection | null
  /** Everyone who prepared or edited it: none of them may approve it. */
  contributors: string[]
  /** Members whose desks held claims of it. */
  releasedBy: string[]
  /** The last version this member looked at, or null. */
  lastSeenVersion: number | null
  /**
   * The review the preparer's desk saw when it shared this version (migration 005): control total,
   * rows left out, name checks and who acknowledged them, fees. Null for a version shared without
   * one (before 005, or from psql).
   */
  review: RunReviewFigures | null
  /**
   * What the team database worked out itself from this version's rows (decision 105), beside the
   * review the preparer's desk reported: null only from a database before schema 10.
   */
  checked: TeamRunChecks | null
  /**
   * The payee checks the sharing desk found on this version's rows, with the confirmations that
   * answer the held ones (decision 135). Null only from a database before schema 11.
   */
  payeeChecks: TeamPayeeChecks | null
  /** What this member may do with the run now, as main decides it (team-run-actions.ts). */
  can: TeamRunActions
}

/** The figures of a version the team database computes from its stored rows (decision 105). */
export interface TeamRunChecks {
  payouts: number
  /** The payouts' total, an exact decimal. */
  total: string
  currency: string
  /** Payouts that repeat another's bank, account and amount (each counted, the first included). */
  repeatedPayouts: number
  /** The sheet's totals row as the desk reported it, and the payouts' total minus it; null: none. */
  sheetTotal: { sheet: string; difference: string } | null
  /** No-match names the desk's review lists whose reference is no payout of this version. */
  noMatchOutside: number
}

/** A flag as the team keeps it: its kind, and the words the sharing desk showed (explainTripwire). */
export interface TeamTripwire {
  kind: TripwireKind
  words: string
}

/**
 * A row's payee checks as a desk shares them with a version (decision 135), by the row's position
 * in the version: the payee as the payee book keys them, the account's key, the sheet's payee id,
 * and the flags. Outside the content hash (they are not sent); fixed with the version.
 */
export interface TeamRowPayee {
  position: number
  payeeId?: string
  payeeKey: string
  accountKey: string
  tripwires: TeamTripwire[]
}

/** A confirmation recorded in the team database (decision 135): by a member who did not prepare or edit the run. */
export interface TeamPayeeConfirmation {
  method: ConfirmationMethod
  note: string | null
  by: string
  at: string
  /** The run and version it was recorded in (an earlier run's confirmation answers later ones). */
  runId: string
  version: number
  kinds: TripwireKind[]
}

/** A flagged row of a version, as every desk and the approver see it. */
export interface TeamPayeeCheckRow {
  position: number
  reference: string
  name: string
  payeeId: string | null
  payeeKey: string
  tripwires: TeamTripwire[]
  /** The flags that hold the row until a confirmation: account changed, shared account. */
  heldFor: TripwireKind[]
  /** Held now: a flag holds it and no confirmation answers it. */
  held: boolean
  confirmation: TeamPayeeConfirmation | null
}

/** A version's payee checks as the team database answers them (run_payee_checks). */
export interface TeamPayeeChecks {
  /** False: the version was shared without payee checks (from psql, or before schema 11). */
  reported: boolean
  /** Rows flagged, by kind (a row with two flags counts under both). */
  counts: Record<TripwireKind, number>
  flaggedRows: number
  /** Rows held now; the run is not approved while any is. */
  held: number
  confirmed: number
  /** The flagged rows, held and confirmed first, at most 1000. */
  rows: TeamPayeeCheckRow[]
  /** Flagged rows beyond those listed. */
  more: number
}

export interface TeamRunRow extends TeamRunContentRow {
  position: number
}

export interface TeamRunRowsPage {
  runId: string
  version: number
  offset: number
  total: number
  rows: TeamRunRow[]
}

export type TeamRunField = Exclude<PayoutRowField, 'reference'>

/** What changed between two versions, matched by payout reference. */
export interface TeamRunChanges {
  runId: string
  fromVersion: number
  toVersion: number
  currency: { from: string; to: string } | null
  merchantBearsCost: { from: boolean; to: boolean } | null
  added: TeamRunRow[]
  removed: TeamRunRow[]
  changed: Array<{ reference: string; fields: TeamRunField[]; from: TeamRunRow; to: TeamRunRow }>
  /** Same payouts, other positions. */
  moved: number
}

export type TeamRunFilter = 'all' | 'awaiting_me' | 'mine' | 'open'

// ---- Release

export type TeamClaimKind = 'batch' | 'payout'

export interface TeamClaimItem {
  reference: string
  position: number
  outcome: PayoutOutcome | null
}

/** The answer to a claim, a renewal or recorded results. */
export interface TeamClaim {
  /** new: this desk now holds it. renewed: it held it already. takeover: the lease of another desk ran out. */
  grant: 'new' | 'renewed' | 'takeover' | 'recorded'
  reference: string
  kind: TeamClaimKind
  runId: string
  version: number
  state: 'held' | 'done' | 'released'
  holder: string
  deskId: string
  claimedAt: string
  leaseUntil: string
  takeovers: number
  items: TeamClaimItem[]
  /** The desk whose expired lease this desk took over. */
  previous: { holder: string; deskId: string; leaseUntil: string } | null
  /**
   * True after a takeover, or when some payout already has a result: verify every payout by
   * reference (under the one send policy) before sending anything of this claim.
   */
  mustVerifyFirst: boolean
}

export interface TeamClaimSummary {
  reference: string
  kind: TeamClaimKind
  runId: string
  version: number
  state: 'held' | 'done' | 'released'
  holder: string
  deskId: string
  claimedAt: string
  leaseUntil: string
  leaseExpired: boolean
  takeovers: number
  payouts: number
  payoutReferences: string[]
}

export interface TeamPayoutResult {
  reference: string
  outcome: PayoutOutcome
  message?: string
  /** The fee the service reported for the payout, a decimal string as the run's row holds it (decision 150). */
  fee?: string
}

export interface TeamRecentPayout {
  reference: string
  runId: string
  runLabel: string
  amount: string
  currency: string
  bankCode: string
  accountNumber: string
  customerName: string
  outcome: PayoutOutcome
  at: string
  message: string | null
  releasedBy: string
  deskId: string
  /** The releasing desk's name as it registered with the team. */
  deskLabel: string
}

/** A team payout as the screens see it: the account masked in main (only its last digits leave). */
export interface TeamRecentPayoutView extends Omit<TeamRecentPayout, 'accountNumber'> {
  account: string
}

/** A page of the team's recent payouts, newest first, with how many there are in all. */
export interface TeamRecentPayoutsPage {
  offset: number
  total: number
  items: TeamRecentPayoutView[]
}

// ---- Members, thresholds, audit

export interface TeamMember {
  login: string
  displayName: string
  roles: TeamRole[]
  active: boolean
  addedAt: string
}

/** What one admin asked and a second must confirm (decision 104). */
export const TEAM_MEMBER_CHANGES = ['approver', 'admin', 'password'] as const
export type TeamMemberChangeKind = (typeof TEAM_MEMBER_CHANGES)[number]

export interface TeamMemberChange {
  login: string
  displayName: string
  change: TeamMemberChangeKind
  requestedBy: string
  requestedAt: string
}

export interface TeamThreshold {
  currency: string
  amount: string
  setBy: string
  setAt: string
}

export interface TeamAuditEntry {
  seq: number
  /** ISO 8601 UTC with microseconds: hashed as written. */
  at: string
  actor: string
  deskId: string | null
  kind: string
  runId: string | null
  subject: string | null
  /** The details as hashed: JSON text. */
  details: string
  prevHash: string
  hash: string
}

export interface TeamAuditPage {
  entries: TeamAuditEntry[]
  /** The highest seq in the trail. */
  lastSeq: number
}

export interface AuditChainCheck {
  ok: boolean
  checked: number
  /** The first entry that is missing, altered or unlinked, and why. */
  firstBroken: { seq: number; reason: string } | null
}

/** The trail checked twice: by this desk over the entries it read, and by the database itself. */
export interface TeamAuditVerification {
  desk: AuditChainCheck
  server: AuditChainCheck
  agree: boolean
}

const LOOPBACK_NAMES = new Set(['localhost', 'localhost.', 'ip6-localhost', '::1', '[::1]'])

/** A host on this computer: the only place a team database may be reached without TLS. */
export function isLoopbackHost(host: string): boolean {
  const name = host.trim().toLowerCase()
  if (LOOPBACK_NAMES.has(name)) return true
  if (name.endsWith('.localhost')) return true
  const parts = name.split('.')
  return (
    parts.length === 4 && parts[0] === '127' && parts.every((part) => /^\d{1,3}$/.test(part) && Number(part) <= 255)
  )
}

export function tlsModeFor(draft: Pick<TeamConnectionDraft, 'host' | 'caFile'>): TeamTlsMode {
  return isLoopbackHost(draft.host) && !draft.caFile ? 'none' : 'verify-full'
}
