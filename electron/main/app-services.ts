/**
 * Builds the main-process services and the handlers for every channel of the IPC contract. Both
 * transports use this: the Electron app (electron/main/index.ts) and the loopback test bridge
 * (electron/main/bridge.ts). Nothing here imports electron; what differs is injected.
 */
import { randomBytes } from 'node:crypto'
import type { EventName, EventPayload } from '../../shared/ipc/contract'
import type { AppInfo } from '../../shared/domain/settings'
import { SANDBOX_PROFILE_ID } from '../../shared/domain/profiles'
import { startSandbox } from '../sandbox'
import type { RunningSandbox } from '../sandbox'
import type { ChannelHandlers } from './ipc/router'
import { createPaymentsClient } from './services/api/payments-client'
import type { PaymentsClient } from './services/api/payments-client'
import { createLookupService } from './services/lookups/lookup-service'
import { createProfileService } from './services/profiles/profile-service'
import type { ProfileService } from './services/profiles/profile-service'
import { createRedactingLog } from './services/log/redacting-log'
import type { AppLog } from './services/log/redacting-log'
import type { SecretStore } from './services/secrets/secret-store'
import { createSettingsStore } from './services/settings/settings-store'

export type EventSink = <E extends EventName>(event: E, payload: EventPayload<E>) => void

export interface AppServices {
  handlers: ChannelHandlers
  profiles: ProfileService
  /** Main's log: masks every key main has handled. Transports give it to the router. */
  log: AppLog
  sandbox: RunningSandbox
  close(): Promise<void>
}

export async function createAppServices(options: {
  userDataDir: string
  keychain: SecretStore
  info: Omit<AppInfo, 'transport'> & { transport: AppInfo['transport'] }
  emit: EventSink
  /** How long completions take in the embedded simulator. */
  sandboxSettleMs?: number
}): Promise<AppServices> {
  const log = createRedactingLog()
  // The embedded simulator backs the Sandbox profile: loopback only, keys made here, kept in memory.
  const sandboxKeys = {
    secretKey: `sk_sandbox_${randomBytes(16).toString('hex')}`,
    encryptionKey: randomBytes(16).toString('hex'),
  }
  log.addSecret(sandboxKeys.secretKey)
  log.addSecret(sandboxKeys.encryptionKey)
  const sandbox = await startSandbox({
    port: 0,
    secretKey: sandboxKeys.secretKey,
    encryptionKey: sandboxKeys.encryptionKey,
    settleMs: options.sandboxSettleMs ?? 1500,
    admin: true,
  })

  const settings = createSettingsStore(options.userDataDir, SANDBOX_PROFILE_ID)
  const profiles = createProfileService({
    settings,
    keychain: options.keychain,
    sandbox: { url: sandbox.url, ...sandboxKeys },
    onChange: (list) => options.emit('profiles:changed', list),
    rememberSecret: (value) => log.addSecret(value),
  })

  async function clientFor(profileId?: string): Promise<PaymentsClient> {
    const credentials = await profiles.credentialsOf(profileId)
    return createPaymentsClient({ baseUrl: credentials.baseUrl, secretKey: credentials.secretKey })
  }
  const lookups = createLookupService(clientFor)

  const handlers: ChannelHandlers = {
    'app:info': () => options.info,
    'settings:get': async () => ({ theme: (await settings.read()).theme }),
    'settings:update': async ({ theme }) => ({
      theme: (await settings.update((state) => ({ ...state, theme }))).theme,
    }),
    'profiles:list': () => profiles.list(),
    'profiles:create': (draft) => profiles.create(draft),
    'profiles:rename': ({ id, name }) => profiles.rename(id, name),
    'profiles:remove': ({ id }) => profiles.remove(id),
    'profiles:activate': ({ id }) => profiles.activate(id),
    'profiles:checkConnection': async ({ id }) => ({ banksListed: (await lookups.banks('NG', id)).length }),
    'secrets:set': ({ profileId, kind, value }) => profiles.setKey(profileId, kind, value),
    'secrets:clear': ({ profileId, kind }) => profiles.clearKey(profileId, kind),
    'lookups:banks': ({ countryCode }) => lookups.banks(countryCode),
    'lookups:availability': ({ type, currency }) => lookups.availability(type, currency),
  }

  return {
    handlers,
    profiles,
    log,
    sandbox,
    close: () => sandbox.close(),
  }
}
