/**
 * The desk's journal as the renderer sees it: every money movement this desk started, its state
 * and its timeline. Main keeps the journal itself (electron/main/services/journal).
 */
import type { ProfileMode } from './profiles'

/** What kind of money movement a journal entry records. */
export const MOVEMENT_KINDS = ['payout', 'bulk_batch', 'card_issue', 'charge'] as const
export type MovementKind = (typeof MOVEMENT_KINDS)[number]

/**
 * recorded: the intent is on disk, nothing sent yet. sent: the request left. processing: the
 * service accepted it and is working. unknown: no clear answer (timeout, 5xx, dropped connection):
 * verify by reference, never resend blindly. success / failed: final.
 */
export const MOVEMENT_STATES = ['recorded', 'sent', 'processing', 'unknown', 'success', 'failed'] as const
export type MovementState = (typeof MOVEMENT_STATES)[number]

export const FINAL_STATES: readonly MovementState[] = ['success', 'failed']
export const OPEN_STATES: readonly MovementState[] = ['recorded', 'sent', 'processing', 'unknown']

export function isFinal(state: MovementState): boolean {
  return FINAL_STATES.includes(state)
}

/** What a verification by reference found: the movement exists (with its state) or does not. */
export type Verification = 'found' | 'absent'

/** One line of a movement's timeline (the user's receipt). */
export interface TimelineEvent {
  seq: number
  at: string
  /** The state this event moved the movement to, when it changed it. */
  state?: MovementState
  /** What happened, in plain words. */
  note: string
  verification?: Verification
  /** Data of the answer worth keeping (fee, trace id, reason); never keys or card numbers. */
  data?: Record<string, unknown>
}

export interface MovementView {
  reference: string
  kind: MovementKind
  profileId: string
  profileMode: ProfileMode
  /** The bulk run or other grouping this movement belongs to. */
  runId?: string
  /** The request as sent (sanitised: no keys, card numbers only as first six and last four). */
  request: Record<string, unknown>
  /** What the movement rests on, sealed with its intent (decision 124: a batch's confirmations). */
  evidence?: Record<string, unknown>
  state: MovementState
  createdAt: string
  updatedAt: string
  /** The last verification by reference, if any: "absent" is what allows "Send again". */
  lastVerification?: Verification
  timeline: TimelineEvent[]
}

export interface JournalVerificationReport {
  ok: boolean
  records: number
  /** The first record whose link to the one before it is broken (tampered, damaged or missing). */
  firstBroken?: { seq: number | null; line: number; at: string | null; reason: string }
  /**
   * Whether the records carry this desk's seal (decision 107): when some do not, `note` says which
   * and why (written before the seal, keychain unavailable, key lost), so an intact answer is read
   * for what it proves.
   */
  seal?: { sealedFrom: number | null; note: string | null }
}

export interface JournalStatus {
  /** False when another copy of the app holds the journal: nothing can be sent from this one. */
  writable: boolean
  path: string
  records: number
  message?: string
  /** A torn last record found on open (a crash mid-write), set aside into its own file. */
  setAside?: { file: string; bytes: number; reason: string }
  /** Records in the middle of the file that could not be read (reported by Verify too). */
  damagedLines: number[]
}

/** Whose movements: one profile, in its mode (decisions 49, 70). */
export interface ProfileScope {
  profileId: string
  mode: ProfileMode
}

/**
 * Whether a movement is the profile's own, in its mode: the one rule by which the payment memory,
 * the fee estimate, the balance warning and the recent payouts (the desk's payee history) keep a
 * rehearsal in the Sandbox or test mode out of Live, and one profile's payouts out of another's.
 */
export function isOfProfile(movement: Pick<MovementView, 'profileId' | 'profileMode'>, scope: ProfileScope): boolean {
  return movement.profileId === scope.profileId && movement.profileMode === scope.mode
}
