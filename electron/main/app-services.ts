/**
 * Builds the main-process services and the handlers for every channel of the IPC contract. Both
 * transports use this: the Electron app (electron/main/index.ts) and the loopback test bridge
 * (electron/main/bridge.ts). Nothing here imports electron; what differs is injected.
 */
import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import type { AppInfo } from '../../shared/domain/settings'
import { SANDBOX_PROFILE_ID } from '../../shared/domain/profiles'
import { startSandbox } from '../sandbox'
import type { RunningSandbox } from '../sandbox'
import type { DesktopAdapters } from './adapters/desktop'
import type { ChannelHandlers } from './ipc/router'
import type { Checkpoints } from './services/checkpoints'
import { createPaymentsApi } from './services/api'
import { AdaptivePace } from './services/api/adaptive-pace'
import { createPaymentsClient } from './services/api/payments-client'
import { createProfileApis } from './services/api/profile-apis'
import { createBulkDomain } from './services/bulk/runs'
import {
  createPayeesDomain,
  createPayeesService,
  PAYEES_FOLDER,
  payeeRunHooks,
  withPaidPayees,
} from './services/payees'
import { createReconciliationDomain } from './services/reconciliation'
import { createCardDomain } from './services/cards/cards-domain'
import { createChargeDomain } from './services/charges/charges-domain'
import { createDesktopDomain } from './services/diagnostics/diagnostics-domain'
import { createDocumentDomain } from './services/documents/documents-domain'
import type { DomainService } from './services/domain-service'
import { createExportDomain } from './services/export/export-domain'
import { createHistoryDomain } from './services/history/history-domain'
import { JournalInUseError, openJournal, unavailableJournal } from './services/journal/journal'
import type { Journal } from './services/journal/journal'
import { createJournalDomain } from './services/journal/journal-domain'
import { createReconciler } from './services/journal/reconciler'
import type { Reconciler } from './services/journal/reconciler'
import { createLookupDomain } from './services/lookups/lookups-domain'
import { createPayoutDomain } from './services/payouts/payouts-domain'
import { createProfileService } from './services/profiles/profile-service'
import type { ProfileService } from './services/profiles/profile-service'
import { createFileLogSink } from './services/log/file-log'
import type { FileLogSink } from './services/log/file-log'
import { withMovementLog } from './services/log/movement-log'
import { createRedactingLog, teeSinks } from './services/log/redacting-log'
import type { AppLog } from './services/log/redacting-log'
import type { SecretStore } from './services/secrets/secret-store'
import type { EventSink, ServiceContext } from './services/service-context'
import { createSettingsStore } from './services/settings/settings-store'
import { createControlsStore, createLimitGate, createLimitsDomain } from './services/limits'
import { createTeamDomain } from './services/team/team-domain'
import { keychainJournalKeys } from './services/journal/journal-seal'
import { createTeamService } from './services/team/team-service'
import { createTeamNotices } from './services/team/team-notices'
import { createTeamRunHooks } from './services/team/team-run-hooks'
import type { TeamService, TeamTiming } from './services/team/team-service'
import { disabledUpdates } from './updates/update-control'
import type { UpdateControl } from './updates/update-control'

export type { EventSink }

export interface AppServices {
  handlers: ChannelHandlers
  profiles: ProfileService
  /** Team mode (decision 38): the active profile's team database, when it has one. */
  team: TeamService
  /** Main's log: masks every key main has handled. Transports give it to the router. */
  log: AppLog
  /** The log file behind `log` (userData/logs/main.log, rotating). */
  logFile: FileLogSink
  sandbox: RunningSandbox
  journal: Journal
  reconciler: Reconciler
  /** Resolves once start-up reconciliation has run and the domains have resumed their work. */
  ready: Promise<void>
  close(): Promise<void>
}

export async function createAppServices(options: {
  userDataDir: string
  keychain: SecretStore
  info: Omit<AppInfo, 'transport'> & { transport: AppInfo['transport'] }
  emit: EventSink
  desktop: DesktopAdapters
  /** Updates of the installed app; absent in development and in the bridge (never checked there). */
  updates?: UpdateControl
  /** How long completions take in the embedded simulator. */
  sandboxSettleMs?: number
  /** Request timeout of the payments client (tests shorten it to see "unknown" quickly). */
  apiTimeoutMs?: number
  /** How long a team claim is held without renewal (tests shorten it to see takeovers quickly). */
  teamLeaseSeconds?: number
  /** The team connection's health checks and reconnection pauses (tests shorten them). */
  teamTiming?: Partial<TeamTiming>
  now?: () => Date
  /** Kill points of crash tests and the soak (services/checkpoints.ts); never given by the app. */
  checkpoints?: Checkpoints
}): Promise<AppServices> {
  // The file gets every level; the console errors and warnings, as before. Masking sits in front of both.
  const logFile = createFileLogSink({ directory: join(options.userDataDir, 'logs') })
  const log = createRedactingLog(teeSinks(logFile, { error: console.error, warn: console.warn }))
  log.info(`${options.info.name} ${options.info.version} starting (${options.info.transport})`)
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
    // The Sandbox keeps its payouts, batches and cards across restarts, as a real service would.
    stateFile: join(options.userDataDir, 'sandbox-state.jsonl'),
  })

  const settings = createSettingsStore(options.userDataDir, SANDBOX_PROFILE_ID)
  // Each profile's limits and payee-check settings (decisions 127, 128), read once, kept in memory.
  const controls = createControlsStore(settings, options.now ?? (() => new Date()))
  // A settings file that cannot be read is said at every send (the profiles say it too), not at start.
  await controls.load().catch((error: unknown) => log.error('The limits could not be read', error))
  const profiles = createProfileService({
    settings,
    keychain: options.keychain,
    sandbox: { url: sandbox.url, ...sandboxKeys },
    onChange: (list) => {
      apis.keep(list.profiles.map((profile) => profile.id))
      options.emit('profiles:changed', list)
      void team.profileChanged().catch((error: unknown) => log.error('Team mode did not follow the profile', error))
    },
    rememberSecret: (value) => log.addSecret(value),
  })
  const teamNotices = createTeamNotices({
    desk: (work) => team.withDesk('reading a run', work),
    notify: (notice) => options.desktop.notifier.notify(notice),
    log,
  })
  const team = createTeamService({
    settings,
    keychain: options.keychain,
    log,
    activeProfileId: async () => {
      const current = await settings.read()
      const known = current.profiles.some((profile) => profile.id === current.activeProfileId)
      return known ? current.activeProfileId : SANDBOX_PROFILE_ID
    },
    onStatus: (status) => options.emit('team:connection', status),
    ...(options.teamTiming ? { timing: options.teamTiming } : {}),
    onChange: (change) => {
      options.emit('team:changed', change)
      teamNotices.heard(change)
      teamRuns.heard(change)
    },
  })

  const apis = createProfileApis({
    credentialsOf: (profileId) => profiles.credentialsOf(profileId),
    build: ({ baseUrl, secretKey }) =>
      createPaymentsApi(
        createPaymentsClient({
          baseUrl,
          secretKey,
          ...(options.apiTimeoutMs ? { timeoutMs: options.apiTimeoutMs } : {}),
          // One pace per profile's service: name checks, submission and monitoring share it.
          pace: new AdaptivePace(),
          onRateLimited: ({ retryAfterSeconds, where }) =>
            options.emit('app:notice', {
              kind: 'warning',
              message: `The payments service asked us to slow down (${where}); asking again in ${retryAfterSeconds} s.`,
            }),
        }),
      ),
  })

  const journalDir = join(options.userDataDir, 'journal')
  let journal: Journal
  try {
    // The journal refuses values holding a key or card data main has registered with the log.
    // Its records are sealed with a key kept in the OS keychain (decision 107).
    journal = await openJournal(journalDir, undefined, {
      secrets: log.secrets,
      keys: keychainJournalKeys(options.keychain, journalDir),
    })
  } catch (error) {
    if (!(error instanceof JournalInUseError)) throw error
    log.warn('Journal in use by another copy of the app; this copy will send nothing', error.message)
    journal = unavailableJournal(error, join(journalDir, 'journal.jsonl'))
  }
  // One log line per money movement and state change, whichever domain moved it.
  journal = withMovementLog(journal, log)
  // The payee book (decisions 109, 116): learns each payout that succeeds (the journal wrapper)
  // and each run's paid rows (the run hooks); each start learns what its record says it lacks of
  // either, and a close waits a while for learns under way (decision 166).
  const payees = createPayeesService({
    directory: join(options.userDataDir, PAYEES_FOLDER),
    journal,
    // The multiple and the first-payment amounts are each profile's Settings (decision 128).
    settings: (scope) => controls.of(scope.profileId).payeeChecks,
    onDamaged: (what, error) => log.warn(`Payee book: ${what} could not be read whole`, error),
    onChanged: (scope) => options.emit('payees:changed', scope),
    ...(options.checkpoints ? { checkpoint: options.checkpoints } : {}),
  })
  journal = withPaidPayees(journal, payees, log)
  const reconciler = createReconciler(journal, (report) => options.emit('journal:reconciled', report))

  const context: ServiceContext = {
    userDataDir: options.userDataDir,
    log,
    emit: options.emit,
    profiles,
    apiFor: (profileId) => apis.apiFor(profileId),
    journal,
    reconciler,
    desktop: options.desktop,
    now: options.now ?? (() => new Date()),
    ...(options.checkpoints ? { checkpoint: options.checkpoints } : {}),
  }

  const domains: Array<DomainService<never>> = []
  function use<D extends DomainService<never>>(domain: D): D['handlers'] {
    domains.push(domain)
    return domain.handlers
  }

  // Team mode's part in bulk runs (claims, shared versions, the team's payouts): wired in one place.
  const teamRuns = createTeamRunHooks({
    team,
    runs: () => bulk.loadedRuns(),
    journal,
    bulkFor: async (profileId) => (await context.apiFor(profileId)).api.bulk,
    notify: (notice) => options.desktop.notifier.notify(notice),
    userDataDir: options.userDataDir,
    log,
    ...(options.teamLeaseSeconds ? { leaseSeconds: options.teamLeaseSeconds } : {}),
  })
  // The limits every send passes in main before its request leaves (decision 127).
  const limits = createLimitGate({ journal, controls, now: context.now })
  const bulk = createBulkDomain(context, { ...teamRuns.hooks, ...payeeRunHooks(payees, log), limits })
  const handlers: ChannelHandlers = {
    'app:info': () => options.info,
    'settings:get': async () => ({ theme: (await settings.read()).theme }),
    'settings:update': async ({ theme }) => ({
      theme: (await settings.update((state) => ({ ...state, theme }))).theme,
    }),
    'profiles:list': () => profiles.list(),
    'profiles:create': (draft) => profiles.create(draft),
    'profiles:rename': ({ id, name }) => profiles.rename(id, name),
    'profiles:setPayerName': ({ id, payerName }) => profiles.setPayerName(id, payerName),
    'profiles:setPaceCeiling': async ({ id, ceiling }) => {
      const view = await profiles.setPaceCeiling(id, ceiling)
      // The profile's client takes the new ceiling now, also for the steps already at work (a
      // profile without keys yet has no client: it takes it when it gets one).
      await apis.apiFor(id).catch(() => undefined)
      return view
    },
    'profiles:remove': ({ id }) => profiles.remove(id),
    'profiles:activate': ({ id }) => profiles.activate(id),
    'profiles:checkConnection': async ({ id }) => ({
      banksListed: (await (await context.apiFor(id)).api.lookups.banks('NG')).length,
    }),
    'secrets:set': ({ profileId, kind, value }) => profiles.setKey(profileId, kind, value),
    'secrets:clear': ({ profileId, kind }) => profiles.clearKey(profileId, kind),
    ...use(createLookupDomain(context)),
    ...use(createJournalDomain(context)),
    ...use(
      createPayoutDomain(context, {
        feeBasis: async (scope, currency) => (await bulk.loadedRuns()).feeBasis(scope, currency),
        limits: {
          gate: limits,
          failedPayouts: async () => {
            const runs = await bulk.loadedRuns()
            return (runId, batchReference) => runs.failedPayouts(runId, batchReference)
          },
        },
      }),
    ),
    ...use(createHistoryDomain(context)),
    ...use(createExportDomain(context)),
    ...use(bulk),
    ...use(createCardDomain(context)),
    ...use(createChargeDomain(context)),
    ...use(createDocumentDomain(context, { runs: bulk.loadedRuns })),
    ...use(createReconciliationDomain(context, { runs: bulk.loadedRuns, team })),
    ...use(createPayeesDomain(context, payees)),
    ...use(createLimitsDomain(context, controls)),
    ...use(createTeamDomain(team, teamRuns.releaseOf, teamRuns.submissionOf, options.desktop.dialogs)),
    ...use(
      createDesktopDomain(context, {
        info: options.info,
        logs: logFile,
        updates: options.updates ?? disabledUpdates('Updates are checked only by the installed app.'),
      }),
    ),
  }

  // Reconciliation does not hold up the first window: it runs once the services are built.
  const ready = reconciler
    .run()
    .catch((error: unknown) => log.error('Start-up reconciliation failed', error))
    .then(() => {
      for (const domain of domains) domain.start?.()
      teamRuns.start()
      // The active profile's book is loaded in its worker now, so the first import finds it ready.
      void profiles
        .list()
        .then(({ activeId, profiles: all }) => {
          const active = all.find((profile) => profile.id === activeId)
          return active ? payees.warm({ profileId: active.id, mode: active.mode }) : undefined
        })
        .catch((error: unknown) => log.warn('The payee book could not be loaded', error))
    })

  return {
    handlers,
    profiles,
    team,
    log,
    logFile,
    sandbox,
    journal,
    reconciler,
    ready,
    async close() {
      await ready
      await teamRuns.close()
      for (const domain of domains) await domain.close?.()
      await payees.close()
      await journal.close()
      await sandbox.close()
    },
  }
}
