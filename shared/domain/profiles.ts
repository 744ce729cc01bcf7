/** Connection profiles: which payments service the app talks to, and how. */
export const PROFILE_MODES = ['sandbox', 'test', 'live'] as const
export type ProfileMode = (typeof PROFILE_MODES)[number]

/** The two keys a profile needs; both live in the OS keychain (or, for Sandbox, in memory). */
export const KEY_KINDS = ['secret', 'encryption'] as const
export type KeyKind = (typeof KEY_KINDS)[number]

export const SANDBOX_PROFILE_ID = 'sandbox'

/** What the renderer may know of a key: whether it is there and its last four characters. */
export interface KeyState {
  configured: boolean
  last4?: string
}

export interface KeychainState {
  available: boolean
  /** Says what is missing and what to install, when the keychain cannot be used. */
  message?: string
}

export interface ProfileView {
  id: string
  name: string
  mode: ProfileMode
  /** For Sandbox, the embedded simulator's loopback address. */
  baseUrl: string
  active: boolean
  keys: Record<KeyKind, KeyState>
  /** Who pays, on payment advices and run summaries; empty when not set (the profile's name is used). */
  payerName: string
  /**
   * At most this many requests to the profile's service at once (decision 144): the ceiling of its
   * adaptive pace, 1 to PACE_CEILING_MAX; PACE_CEILING_MAX until lowered in Settings.
   */
  paceCeiling: number
}

/** The most requests in flight to one payments service; a profile's setting can only lower it (decision 144). */
export const PACE_CEILING_MAX = 32

/** The payer a document names: the profile's payer name, or its name when none is set. */
export function payerOf(profile: Pick<ProfileView, 'name' | 'payerName'>): string {
  return profile.payerName.trim() || profile.name
}

export interface ProfileList {
  profiles: ProfileView[]
  activeId: string
  keychain: KeychainState
}

export function isLive(profile: Pick<ProfileView, 'mode'>): boolean {
  return profile.mode === 'live'
}
