/**
 * Connection profiles and their keys. The built-in Sandbox profile points at the embedded
 * simulator with keys main generated in memory; test and live profiles keep their keys in the OS
 * keychain. The renderer sees a key only as `{ configured, last4 }`; `credentialsOf` is main-only.
 */
import { randomBytes } from 'node:crypto'
import type {
  KeyKind,
  KeyState,
  KeychainState,
  ProfileList,
  ProfileMode,
  ProfileView,
} from '../../../../shared/domain/profiles'
import { KEY_KINDS, PACE_CEILING_MAX, SANDBOX_PROFILE_ID } from '../../../../shared/domain/profiles'
import { AppFailure } from '../../../../shared/result'
import { KeychainUnavailableError } from '../secrets'
import type { SecretKind, SecretStore } from '../secrets'
import type { SettingsStore, StoredProfile } from '../settings'
import { encryptionKeyProblem } from '../../../../shared/rules/keys'
import { DEFAULT_ACCOUNTS, type AccountMapping } from '../../../../shared/reconciliation/journal-entries'

export interface EmbeddedSandbox {
  url: string
  secretKey: string
  encryptionKey: string
}

export interface ProfileCredentials {
  profileId: string
  mode: ProfileMode
  baseUrl: string
  secretKey: string
  encryptionKey: string | null
  /** The ceiling of the profile's pace (decision 144). */
  paceCeiling: number
}

export interface ProfileService {
  list(): Promise<ProfileList>
  create(draft: { name: string; mode: 'test' | 'live'; baseUrl: string }): Promise<ProfileView>
  rename(id: string, name: string): Promise<ProfileView>
  setPayerName(id: string, payerName: string): Promise<ProfileView>
  /** At most `ceiling` requests at once to the profile's service (1 to PACE_CEILING_MAX; decision 144). */
  setPaceCeiling(id: string, ceiling: number): Promise<ProfileView>
  /** The ledger accounts a profile's journal entries are booked to: its own, else the defaults. */
  ledgerAccounts(id: string): Promise<AccountMapping>
  /** Sets them (already checked by the caller: ledgerMappingProblem). */
  setLedgerAccounts(id: string, accounts: AccountMapping): Promise<AccountMapping>
  remove(id: string): Promise<ProfileList>
  activate(id: string): Promise<ProfileList>
  setKey(profileId: string, kind: KeyKind, value: string): Promise<KeyState>
  clearKey(profileId: string, kind: KeyKind): Promise<KeyState>
  /** Main-only: the keys of a profile (the active one by default), for API and encryption calls. */
  credentialsOf(profileId?: string): Promise<ProfileCredentials>
}

export function createProfileService(deps: {
  settings: SettingsStore
  keychain: SecretStore
  sandbox: EmbeddedSandbox
  onChange?: (list: ProfileList) => void
  /** Told of every key main handles, so the log can mask it. */
  rememberSecret?: (value: string) => void
}): ProfileService {
  const { settings, keychain, sandbox } = deps
  /**
   * The keys of each profile as last read from the keychain: one read pair per profile, not one per
   * API call. Forgotten whenever this service changes them (setKey, clearKey, remove); a read that
   * fails is not kept, so a keychain that comes back is asked again.
   */
  const keysRead = new Map<string, Promise<{ secretKey: string | null; encryptionKey: string | null }>>()
  function keysOf(profileId: string): Promise<{ secretKey: string | null; encryptionKey: string | null }> {
    let keys = keysRead.get(profileId)
    if (!keys) {
      keys = (async () => ({
        secretKey: await readKey(profileId, 'secret'),
        encryptionKey: await readKey(profileId, 'encryption'),
      }))()
      keysRead.set(profileId, keys)
      keys.catch(() => keysRead.delete(profileId))
    }
    return keys
  }

  async function findStored(id: string): Promise<StoredProfile> {
    const found = (await settings.read()).profiles.find((profile) => profile.id === id)
    if (!found) throw new AppFailure('not_found', `There is no profile "${id}".`)
    return found
  }

  function refuseSandbox(id: string, action: string): void {
    if (id === SANDBOX_PROFILE_ID) throw new AppFailure('conflict', `The built-in Sandbox profile cannot be ${action}.`)
  }

  async function readKey(profileId: string, kind: KeyKind): Promise<string | null> {
    if (profileId === SANDBOX_PROFILE_ID) return kind === 'secret' ? sandbox.secretKey : sandbox.encryptionKey
    try {
      const value = await keychain.get(profileId, kind)
      if (value) deps.rememberSecret?.(value)
      return value
    } catch (error) {
      if (error instanceof KeychainUnavailableError) throw new AppFailure('keychain_unavailable', error.message)
      throw error
    }
  }

  async function keyStates(profileId: string, keychainState: KeychainState): Promise<Record<KeyKind, KeyState>> {
    const states = {} as Record<KeyKind, KeyState>
    for (const kind of KEY_KINDS) {
      if (profileId !== SANDBOX_PROFILE_ID && !keychainState.available) {
        states[kind] = { configured: false }
        continue
      }
      states[kind] = describeKey(await readKey(profileId, kind))
    }
    return states
  }

  /** One keychain probe per listing, so an unavailable keychain is reported once and nothing breaks. */
  async function probeKeychain(stored: StoredProfile[]): Promise<KeychainState> {
    try {
      await keychain.get(stored[0]?.id ?? 'probe', 'secret')
      return { available: true }
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      return { available: false, message }
    }
  }

  async function list(): Promise<ProfileList> {
    const current = await settings.read()
    const keychainState = await probeKeychain(current.profiles)
    const sandboxView: ProfileView = {
      id: SANDBOX_PROFILE_ID,
      name: 'Sandbox',
      mode: 'sandbox',
      baseUrl: sandbox.url,
      active: current.activeProfileId === SANDBOX_PROFILE_ID,
      keys: await keyStates(SANDBOX_PROFILE_ID, keychainState),
      payerName: current.sandboxPayerName ?? '',
      paceCeiling: current.paceCeilings[SANDBOX_PROFILE_ID] ?? PACE_CEILING_MAX,
    }
    const views = [sandboxView]
    for (const profile of current.profiles) {
      views.push({
        ...profile,
        payerName: profile.payerName ?? '',
        paceCeiling: current.paceCeilings[profile.id] ?? PACE_CEILING_MAX,
        active: profile.id === current.activeProfileId,
        keys: await keyStates(profile.id, keychainState),
      })
    }
    // A settings file may name a profile that no longer exists: fall back to Sandbox rather than fail.
    const activeId = views.some((view) => view.active) ? current.activeProfileId : SANDBOX_PROFILE_ID
    if (activeId === SANDBOX_PROFILE_ID) sandboxView.active = true
    return { profiles: views, activeId, keychain: keychainState }
  }

  function viewIn(listed: ProfileList, id: string): ProfileView {
    const view = listed.profiles.find((profile) => profile.id === id)
    if (!view) throw new AppFailure('not_found', `There is no profile "${id}".`)
    return view
  }

  async function changed(): Promise<ProfileList> {
    const next = await list()
    deps.onChange?.(next)
    return next
  }

  return {
    list,

    async create(draft) {
      const current = await settings.read()
      if (
        current.profiles.some((profile) => profile.name.toLowerCase() === draft.name.toLowerCase()) ||
        draft.name.toLowerCase() === 'sandbox'
      ) {
        throw new AppFailure('conflict', `A profile named "${draft.name}" already exists.`)
      }
      const id = `${slugify(draft.name)}-${randomBytes(3).toString('hex')}`
      await settings.update((state) => ({ ...state, profiles: [...state.profiles, { id, ...draft }] }))
      return viewIn(await changed(), id)
    },

    async rename(id, name) {
      refuseSandbox(id, 'renamed')
      await findStored(id)
      await settings.update((state) => ({
        ...state,
        profiles: state.profiles.map((profile) => (profile.id === id ? { ...profile, name } : profile)),
      }))
      return viewIn(await changed(), id)
    },

    async setPayerName(id, payerName) {
      const value = payerName.trim()
      if (id === SANDBOX_PROFILE_ID) {
        await settings.update((state) => ({ ...state, sandboxPayerName: value }))
      } else {
        await findStored(id)
        await settings.update((state) => ({
          ...state,
          profiles: state.profiles.map((profile) => (profile.id === id ? { ...profile, payerName: value } : profile)),
        }))
      }
      return viewIn(await changed(), id)
    },

    async setPaceCeiling(id, ceiling) {
      if (!Number.isInteger(ceiling) || ceiling < 1 || ceiling > PACE_CEILING_MAX)
        throw new AppFailure(
          'bad_request',
          `${String(ceiling).slice(0, 20)} is not a number of requests at once: give a whole number from 1 to ${PACE_CEILING_MAX}.`,
        )
      if (id !== SANDBOX_PROFILE_ID) await findStored(id)
      await settings.update((state) => ({ ...state, paceCeilings: { ...state.paceCeilings, [id]: ceiling } }))
      return viewIn(await changed(), id)
    },

    async ledgerAccounts(id) {
      return (await settings.read()).ledgerAccounts[id] ?? DEFAULT_ACCOUNTS
    },

    async setLedgerAccounts(id, accounts) {
      if (id !== SANDBOX_PROFILE_ID) await findStored(id)
      const saved = await settings.update((state) => ({
        ...state,
        ledgerAccounts: { ...state.ledgerAccounts, [id]: accounts },
      }))
      return saved.ledgerAccounts[id] ?? accounts
    },

    async remove(id) {
      refuseSandbox(id, 'removed')
      await findStored(id)
      // Keys first: a profile must never disappear while its keys stay behind in the keychain.
      for (const kind of [...KEY_KINDS, 'team-password' as const]) await deleteKey(id, kind)
      await settings.update((state) => ({
        ...state,
        profiles: state.profiles.filter((profile) => profile.id !== id),
        teamConnections: Object.fromEntries(
          Object.entries(state.teamConnections).filter(([profile]) => profile !== id),
        ),
        ledgerAccounts: Object.fromEntries(Object.entries(state.ledgerAccounts).filter(([profile]) => profile !== id)),
        paceCeilings: Object.fromEntries(Object.entries(state.paceCeilings).filter(([profile]) => profile !== id)),
        activeProfileId: state.activeProfileId === id ? SANDBOX_PROFILE_ID : state.activeProfileId,
      }))
      return changed()
    },

    async activate(id) {
      if (id !== SANDBOX_PROFILE_ID) await findStored(id)
      await settings.update((state) => ({ ...state, activeProfileId: id }))
      return changed()
    },

    async setKey(profileId, kind, value) {
      refuseSandbox(profileId, 'given keys: it generates its own')
      await findStored(profileId)
      const shape = kind === 'encryption' ? encryptionKeyProblem(value) : null
      if (shape) throw new AppFailure('bad_request', shape)
      deps.rememberSecret?.(value)
      keysRead.delete(profileId)
      try {
        await keychain.set(profileId, kind, value)
        // Again after the write: a read that ran during it may have kept the old key.
        keysRead.delete(profileId)
      } catch (error) {
        if (error instanceof KeychainUnavailableError) throw new AppFailure('keychain_unavailable', error.message)
        throw error
      }
      await changed()
      return describeKey(value)
    },

    async clearKey(profileId, kind) {
      refuseSandbox(profileId, 'cleared of its keys')
      await findStored(profileId)
      await deleteKey(profileId, kind)
      await changed()
      return { configured: false }
    },

    async credentialsOf(profileId) {
      const current = await settings.read()
      const id = profileId ?? current.activeProfileId
      if (id === SANDBOX_PROFILE_ID) {
        return {
          profileId: id,
          mode: 'sandbox',
          baseUrl: sandbox.url,
          secretKey: sandbox.secretKey,
          encryptionKey: sandbox.encryptionKey,
          paceCeiling: current.paceCeilings[id] ?? PACE_CEILING_MAX,
        }
      }
      const profile = await findStored(id)
      const { secretKey, encryptionKey } = await keysOf(id)
      if (!secretKey) throw new AppFailure('keys_missing', `The profile "${profile.name}" has no secret key yet.`)
      return {
        profileId: id,
        mode: profile.mode,
        baseUrl: profile.baseUrl,
        secretKey,
        encryptionKey,
        paceCeiling: current.paceCeilings[id] ?? PACE_CEILING_MAX,
      }
    },
  }

  async function deleteKey(profileId: string, kind: SecretKind): Promise<void> {
    keysRead.delete(profileId)
    try {
      await keychain.delete(profileId, kind)
      keysRead.delete(profileId)
    } catch (error) {
      if (error instanceof KeychainUnavailableError) throw new AppFailure('keychain_unavailable', error.message)
      throw error
    }
  }
}

function describeKey(value: string | null): KeyState {
  return value ? { configured: true, last4: value.slice(-4) } : { configured: false }
}

function slugify(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'profile'
  )
}
