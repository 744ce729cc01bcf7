import { defineStore } from 'pinia'
import { computed, reactive, ref } from 'vue'
import { api } from '../api'
import type { Unsubscribe } from '../../../shared/ipc/contract'
import type { AppError, Result } from '../../../shared/result'
import type {
  KeyKind,
  KeyState,
  KeychainState,
  ProfileList,
  ProfileMode,
  ProfileView,
} from '../../../shared/domain/profiles'
import { callApi } from './call'

export interface NewProfile {
  name: string
  mode: Extract<ProfileMode, 'test' | 'live'>
  baseUrl: string
}

/** Connection profiles, the active one, and the state (never the value) of their keys. */
export const useProfilesStore = defineStore('profiles', () => {
  const list = ref<ProfileList | null>(null)
  const loading = ref(false)
  const lastError = ref<AppError | null>(null)
  /** Names of actions in flight, e.g. `activate:acme-live`, so each button can show its own spinner. */
  const inFlight = reactive(new Set<string>())
  let unsubscribe: Unsubscribe | null = null

  const profiles = computed<ProfileView[]>(() => list.value?.profiles ?? [])
  const activeProfile = computed<ProfileView | null>(
    () => profiles.value.find((profile) => profile.id === list.value?.activeId) ?? null,
  )
  // Until the list arrives, assume the keychain works rather than flash a warning.
  const keychain = computed<KeychainState>(() => list.value?.keychain ?? { available: true })

  function isBusy(action: string): boolean {
    return inFlight.has(action)
  }

  async function track<T>(
    action: string,
    call: () => Promise<Result<T>>,
    onData?: (data: T) => void,
  ): Promise<Result<T>> {
    inFlight.add(action)
    try {
      const result = await callApi(call)
      if (result.ok) {
        lastError.value = null
        onData?.(result.data)
      } else {
        lastError.value = result.error
      }
      return result
    } finally {
      inFlight.delete(action)
    }
  }

  /** Loads the list once and follows main's changes from then on (another window, a removed key). */
  async function init(): Promise<Result<ProfileList>> {
    unsubscribe ??= api.profiles.onChanged((next) => {
      list.value = next
    })
    return load()
  }

  async function load(): Promise<Result<ProfileList>> {
    loading.value = true
    try {
      return await track(
        'load',
        () => api.profiles.list(),
        (data) => (list.value = data),
      )
    } finally {
      loading.value = false
    }
  }

  function replaceProfile(updated: ProfileView): void {
    if (!list.value) return
    list.value = {
      ...list.value,
      profiles: list.value.profiles.map((profile) => (profile.id === updated.id ? updated : profile)),
    }
  }

  function replaceKeyState(profileId: string, kind: KeyKind, state: KeyState): void {
    const profile = profiles.value.find((candidate) => candidate.id === profileId)
    if (profile) replaceProfile({ ...profile, keys: { ...profile.keys, [kind]: state } })
  }

  async function create(input: NewProfile): Promise<Result<ProfileView>> {
    const result = await track('create', () => api.profiles.create(input))
    if (result.ok) await load()
    return result
  }

  async function rename(id: string, name: string): Promise<Result<ProfileView>> {
    return track(`rename:${id}`, () => api.profiles.rename({ id, name }), replaceProfile)
  }

  /** Who pays, on payment advices and run summaries; empty clears it (the profile's name is used). */
  async function setPayerName(id: string, payerName: string): Promise<Result<ProfileView>> {
    return track(`payer:${id}`, () => api.profiles.setPayerName({ id, payerName }), replaceProfile)
  }

  /** At most this many requests at once to the profile's service (decision 144). */
  async function setPaceCeiling(id: string, ceiling: number): Promise<Result<ProfileView>> {
    return track(`pace:${id}`, () => api.profiles.setPaceCeiling({ id, ceiling }), replaceProfile)
  }

  async function remove(id: string): Promise<Result<ProfileList>> {
    return track(
      `remove:${id}`,
      () => api.profiles.remove({ id }),
      (data) => (list.value = data),
    )
  }

  async function activate(id: string): Promise<Result<ProfileList>> {
    return track(
      `activate:${id}`,
      () => api.profiles.activate({ id }),
      (data) => (list.value = data),
    )
  }

  /** The key value goes straight to main; the store keeps only what main answers: configured and last4. */
  async function setKey(profileId: string, kind: KeyKind, value: string): Promise<Result<KeyState>> {
    return track(
      `setKey:${profileId}:${kind}`,
      () => api.secrets.set({ profileId, kind, value }),
      (state) => replaceKeyState(profileId, kind, state),
    )
  }

  async function clearKey(profileId: string, kind: KeyKind): Promise<Result<KeyState>> {
    return track(
      `clearKey:${profileId}:${kind}`,
      () => api.secrets.clear({ profileId, kind }),
      (state) => replaceKeyState(profileId, kind, state),
    )
  }

  async function checkConnection(id: string): Promise<Result<{ banksListed: number }>> {
    return track(`checkConnection:${id}`, () => api.profiles.checkConnection({ id }))
  }

  return {
    list,
    profiles,
    activeProfile,
    keychain,
    loading,
    lastError,
    isBusy,
    init,
    load,
    create,
    rename,
    setPayerName,
    setPaceCeiling,
    remove,
    activate,
    setKey,
    clearKey,
    checkConnection,
  }
})
