/**
 * The app's lifecycle: one instance, the app:// scheme, the guards, IPC, the menu, the window, the
 * services, updates. Electron's API comes in as one object (electron-api.ts): index.ts passes the
 * real module, and tests boot this with a recording stand-in to prove what Electron is asked to do
 * without an Electron binary. Everything else lives in services that know nothing of Electron.
 *
 * Order matters and is tested: the scheme is registered before `ready` (Electron refuses it later);
 * the single-instance lock is taken before anything else starts (two copies must never write the
 * same journal); a second launch hands over to the first and starts nothing. The window opens
 * first; the services (the embedded Sandbox, the journal, start-up reconciliation) start right
 * after it, while its renderer loads, and IPC calls that arrive before they are ready wait for them.
 */
import { dirname } from 'node:path'
import type { BrowserWindow } from 'electron'
import { channelNames } from '../../shared/ipc/contract'
import type { Channel } from '../../shared/ipc/contract'
import type { UpdateStatus } from '../../shared/domain/diagnostics'
import type { DesktopAdapters } from './adapters/desktop'
import { createElectronDesktop } from './adapters/electron-desktop'
import { createAppServices } from './app-services'
import type { AppServices } from './app-services'
import type { ElectronApi } from './electron-api'
import { registerIpc, sendEvent } from './ipc/electron-transport'
import { createRouter } from './ipc/router'
import type { ChannelHandlers } from './ipc/router'
import { loggingRefusals, mainWindowSenderPolicy } from './ipc/sender-policy'
import type { TrustedWindow } from './ipc/sender-policy'
import { installApplicationMenu } from './menu/application-menu'
import type { SecretStore } from './services/secrets/secret-store'
import type { EventSink } from './services/service-context'
import { disabledUpdates } from './updates/update-control'
import type { UpdateControl } from './updates/update-control'
import { APP_PAGE_URL, registerAppScheme, serveAppScheme } from './windows/app-scheme'
import { createAppUrlMatcher } from './windows/app-url'
import { installAppGuards } from './windows/guards'
import { createMainWindow } from './windows/main-window'
import { watchRenderer } from './windows/renderer-watch'
import { secondInstanceAction } from './windows/single-instance'
import { readWindowState, saveWindowState } from './windows/window-state-store'
import type { WindowState } from './windows/window-state'
import { refusedSwitches, refusedSwitchesMessage } from './security/refused-switches'

export const APP_NAME = 'Payout Desk'

/** The longest a quit waits for the services to close before the app exits anyway. */
export const QUIT_WAIT_MS = 10_000

async function closeWithin(
  services: Pick<AppServices, 'close'>,
  waitMs: number,
  log: { warn(message: string, detail?: unknown): void },
): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const closing = services.close().catch((error: unknown) => log.warn('The services did not close cleanly', error))
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      log.warn(`The services had not closed after ${waitMs / 1000} s; the app exits anyway`)
      resolve()
    }, waitMs)
  })
  await Promise.race([closing, late])
  clearTimeout(timer)
}

/** What main hands the services it starts (the same as createAppServices takes). */
export interface ServiceStart {
  userDataDir: string
  keychain: SecretStore
  info: { name: string; version: string; transport: 'electron' }
  emit: EventSink
  desktop: DesktopAdapters
  updates: UpdateControl
}

export interface MainProcessOptions {
  /** The built renderer folder (out/renderer), served as app://payout-desk/. */
  rendererDir: string
  /** The built preload (out/preload/index.js). */
  preloadPath: string
  /** The dev server under `npm run dev`; never in a packaged app. */
  devServerUrl?: string | undefined
  keychain: SecretStore
  /** Starts the services; tests pass a recording stand-in. */
  startServices?: (start: ServiceStart) => Promise<AppServices>
  /** Starts electron-updater after the services; tests pass a stand-in. */
  startUpdates?: (options: {
    isPackaged: boolean
    log: AppServices['log']
    onStatus(status: UpdateStatus): void
    onNotice(message: string): void
  }) => Promise<UpdateControl>
  platform?: NodeJS.Platform
  /** Where problems go before the services' log exists. */
  console?: Pick<Console, 'error' | 'warn'>
  /** The process's command line (tests pass their own). */
  argv?: readonly string[]
}

export interface MainProcess {
  /** False when another copy holds the lock: this one quits and starts nothing. */
  readonly primary: boolean
  /** Settles once start-up after `ready` has finished (or failed). */
  readonly started: Promise<void>
  mainWindow(): BrowserWindow | null
}

async function defaultUpdates(options: Parameters<NonNullable<MainProcessOptions['startUpdates']>>[0]) {
  // electron-updater takes a few hundred milliseconds to require: loaded after the window and
  // the services, not with main's bundle before the window can open.
  const { startElectronUpdates } = await import('./updates/electron-updates')
  return startElectronUpdates(options)
}

export function startMainProcess(electron: ElectronApi, options: MainProcessOptions): MainProcess {
  const { app, BrowserWindow, shell } = electron
  const out = options.console ?? console
  const platform = options.platform ?? process.platform
  const appUrl = options.devServerUrl ?? APP_PAGE_URL
  const isAppUrl = createAppUrlMatcher(appUrl)

  let mainWindow: BrowserWindow | null = null
  let services: AppServices | null = null
  let servicesReady: Promise<AppServices> | null = null
  let windowState: WindowState | null = null
  let updates: UpdateControl = disabledUpdates('Updates have not been checked yet.')

  const log = {
    error: (message: string, detail?: unknown) =>
      services ? services.log.error(message, detail) : out.error(message, detail ?? ''),
    warn: (message: string, detail?: unknown) =>
      services ? services.log.warn(message, detail) : out.warn(message, detail ?? ''),
    info: (message: string) => services?.log.info(message),
  }

  // The installed app refuses debugging switches before anything starts (security/refused-switches.ts).
  const refused = app.isPackaged ? refusedSwitches(options.argv ?? process.argv) : []
  if (refused.length > 0) {
    out.error(refusedSwitchesMessage(refused))
    app.exit(1)
    return { primary: false, started: Promise.resolve(), mainWindow: () => null }
  }

  // Before `ready`, and before the lock: Electron accepts privileged schemes only this early.
  registerAppScheme(electron.protocol)
  // Every renderer sandboxed, whatever a window's own preferences say.
  app.enableSandbox()

  // One copy at a time: two copies must never write the same journal. The second launch hands over
  // to the first (second-instance below) and quits before it has touched anything.
  if (!app.requestSingleInstanceLock()) {
    app.quit()
    return { primary: false, started: Promise.resolve(), mainWindow: () => null }
  }

  app.on('second-instance', () => {
    const window = mainWindow && !mainWindow.isDestroyed() ? mainWindow : null
    const action = secondInstanceAction({
      exists: window !== null,
      minimized: window?.isMinimized() ?? false,
      visible: window?.isVisible() ?? false,
    })
    if (action.kind === 'open-window') {
      if (windowState) openMainWindow(windowState)
      return
    }
    if (action.restore) window?.restore()
    if (action.show) window?.show()
    window?.focus()
  })

  app.on('window-all-closed', () => {
    if (platform !== 'darwin') app.quit()
  })

  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0 && windowState) openMainWindow(windowState)
  })

  // A quit waits for the services to close (at most QUIT_WAIT_MS), so what they have under way ends
  // on disk: the payee book's learns are answered and recorded before its worker ends (decision
  // 166). Then the app exits; a second quit meanwhile waits for the same close.
  let quitting: Promise<void> | null = null
  app.on('will-quit', (event) => {
    const running = services
    if (!running) return
    event.preventDefault()
    quitting ??= closeWithin(running, QUIT_WAIT_MS, log).then(() => app.exit(0))
  })

  const started = app
    .whenReady()
    .then(start)
    .catch((error: unknown) => {
      out.error('Payout Desk could not start', error)
      app.exit(1)
    })

  async function start(): Promise<void> {
    const userDataDir = app.getPath('userData')
    serveAppScheme(electron, options.rendererDir)
    installAppGuards(electron, isAppUrl, log)

    // IPC is registered before the window exists; a call that comes before the services are ready
    // waits for them.
    let servicesStarted: (started: Promise<AppServices>) => void = () => undefined
    servicesReady = new Promise<AppServices>((resolve) => {
      servicesStarted = resolve
    })
    // A failure to start is handled where start() awaits it below, not as an unhandled rejection.
    servicesReady.catch(() => undefined)

    registerIpc(
      electron.ipcMain,
      createRouter({
        log,
        handlers: waitingHandlers(servicesReady),
        senderPolicy: loggingRefusals(mainWindowSenderPolicy(trustedMainWindow, isAppUrl), log),
      }),
    )
    installApplicationMenu(electron.Menu, {
      appName: APP_NAME,
      platform,
      isPackaged: app.isPackaged,
      actions: { openLogsFolder, copyDiagnostics, showAbout },
    })

    windowState = await readWindowState(userDataDir)
    openMainWindow(windowState)

    // Started once the window is on its way, not awaited: the embedded Sandbox replays its saved
    // state synchronously as it starts (a long history takes a while), which must not hold up the
    // window's creation; the renderer process starts and loads meanwhile.
    const startServices = options.startServices ?? createAppServices
    servicesStarted(
      startServices({
        userDataDir,
        keychain: options.keychain,
        info: { name: APP_NAME, version: app.getVersion(), transport: 'electron' },
        emit: (event, payload) => sendEvent(mainWindow, event, payload),
        desktop: createElectronDesktop(electron, () => mainWindow, log),
        // The real updater replaces the placeholder once the log exists; the channels read through.
        updates: {
          status: () => updates.status(),
          restartToUpdate: (inFlight) => updates.restartToUpdate(inFlight),
        },
      }),
    )

    services = await servicesReady
    updates = await (options.startUpdates ?? defaultUpdates)({
      isPackaged: app.isPackaged,
      log: services.log,
      onStatus: (status: UpdateStatus) => sendEvent(mainWindow, 'desktop:updateChanged', status),
      onNotice: (message) => sendEvent(mainWindow, 'app:notice', { kind: 'info', message }),
    })
  }

  /** Every channel's handler, waiting for the services when a call comes before they are ready. */
  function waitingHandlers(ready: Promise<AppServices>): ChannelHandlers {
    const entries = channelNames.map((channel: Channel) => [
      channel,
      async (input: unknown) => {
        const handler = (await ready).handlers[channel] as (input: unknown) => unknown
        return handler(input)
      },
    ])
    return Object.fromEntries(entries) as ChannelHandlers
  }

  function trustedMainWindow(): TrustedWindow | null {
    if (!mainWindow) return null
    const window = mainWindow
    return { webContentsId: window.webContents.id, isDestroyed: () => window.isDestroyed() }
  }

  function openMainWindow(placement: WindowState): void {
    const userDataDir = app.getPath('userData')
    const window = createMainWindow(electron, {
      preload: options.preloadPath,
      appUrl,
      placement,
      onPlacementChanged(state) {
        windowState = state
        saveWindowState(userDataDir, state).catch((error: unknown) =>
          log.warn('The window position could not be saved', error),
        )
      },
    })
    mainWindow = window
    watchRenderer(window, log)
    window.on('closed', () => {
      if (mainWindow === window) mainWindow = null
    })
  }

  function openLogsFolder(): void {
    void servicesReady?.then(async (ready) => {
      const problem = await shell.openPath(dirname(ready.logFile.file))
      if (problem) ready.log.warn('The logs folder could not be opened', problem)
    })
  }

  function copyDiagnostics(): void {
    void servicesReady?.then(async (ready) => {
      await ready.handlers['desktop:copyDiagnostics'](undefined)
      sendEvent(mainWindow, 'app:notice', {
        kind: 'success',
        message: 'Diagnostics copied to the clipboard: paste them into your support ticket.',
      })
    })
  }

  function showAbout(): void {
    if (!mainWindow && windowState) openMainWindow(windowState)
    mainWindow?.show()
    mainWindow?.focus()
    sendEvent(mainWindow, 'desktop:showAbout', null)
  }

  return { primary: true, started, mainWindow: () => mainWindow }
}
