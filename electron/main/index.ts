/**
 * App lifecycle only: one instance, the menu, the window, IPC, the services, updates. Everything
 * else lives in services that know nothing of Electron. The loopback test bridge is never started
 * here.
 *
 * The window opens first; the services (the embedded Sandbox, the journal, start-up reconciliation)
 * start right after it, while its renderer loads, and IPC calls that arrive before they are ready
 * wait for them.
 */
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { app, BrowserWindow, shell } from 'electron'
import { channelNames } from '../../shared/ipc/contract'
import type { Channel } from '../../shared/ipc/contract'
import type { UpdateStatus } from '../../shared/domain/diagnostics'
import { createElectronDesktop } from './adapters/electron-desktop'
import { KeytarSecretStore } from './services/secrets/keytar-secret-store'
import type { KeytarModule } from './services/secrets/keytar-secret-store'
import { createAppServices } from './app-services'
import type { AppServices } from './app-services'
import { createRouter } from './ipc/router'
import type { ChannelHandlers } from './ipc/router'
import { registerIpc, sendEvent } from './ipc/electron-transport'
import { mainWindowSenderPolicy } from './ipc/sender-policy'
import type { TrustedWindow } from './ipc/sender-policy'
import { installApplicationMenu } from './menu/application-menu'
import { disabledUpdates } from './updates/update-control'
import type { UpdateControl } from './updates/update-control'
import { createAppUrlMatcher } from './windows/app-url'
import { installAppGuards } from './windows/guards'
import { createMainWindow } from './windows/main-window'
import { watchRenderer } from './windows/renderer-watch'
import { secondInstanceAction } from './windows/single-instance'
import { readWindowState, saveWindowState } from './windows/window-state-store'
import type { WindowState } from './windows/window-state'

const APP_NAME = 'Payout Desk'
const devServerUrl = !app.isPackaged ? process.env['ELECTRON_RENDERER_URL'] : undefined
const appUrl = devServerUrl ?? pathToFileURL(join(__dirname, '../renderer/index.html')).toString()
const isAppUrl = createAppUrlMatcher(appUrl)

/**
 * A plain require: this bundle is CommonJS, and Electron's dynamic import() cannot always resolve
 * packages inside an asar archive. Lazy, so a missing libsecret becomes a message, not a crash.
 */
async function loadKeytarInElectron(): Promise<KeytarModule> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('keytar') as KeytarModule
}

let mainWindow: BrowserWindow | null = null
let services: AppServices | null = null
let servicesReady: Promise<AppServices> | null = null
let windowState: WindowState | null = null
let updates: UpdateControl = disabledUpdates('Updates have not been checked yet.')

// Every renderer sandboxed, whatever a window's own preferences say.
app.enableSandbox()

// One copy at a time: two copies must never write the same journal. The second launch hands over
// to the first (second-instance below) and quits before it has touched anything.
if (!app.requestSingleInstanceLock()) {
  app.quit()
} else {
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
    if (process.platform !== 'darwin') app.quit()
  })

  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0 && windowState) openMainWindow(windowState)
  })

  app.on('will-quit', () => {
    void services?.close()
  })

  app
    .whenReady()
    .then(start)
    .catch((error: unknown) => {
      console.error('Payout Desk could not start', error)
      app.exit(1)
    })
}

async function start(): Promise<void> {
  const userDataDir = app.getPath('userData')
  installAppGuards(isAppUrl, { warn: (message) => (services ? services.log.warn(message) : console.warn(message)) })

  // IPC is registered before the window exists; a call that comes before the services are ready
  // waits for them.
  let servicesStarted: (started: Promise<AppServices>) => void = () => undefined
  servicesReady = new Promise<AppServices>((resolve) => {
    servicesStarted = resolve
  })
  // A failure to start is handled where start() awaits it below, not as an unhandled rejection.
  servicesReady.catch(() => undefined)

  registerIpc(
    createRouter({
      log: { error: (message, detail) => (services ? services.log.error(message, detail) : console.error(message)) },
      handlers: waitingHandlers(servicesReady),
      senderPolicy: mainWindowSenderPolicy(trustedMainWindow, isAppUrl),
    }),
  )
  installApplicationMenu({
    appName: APP_NAME,
    platform: process.platform,
    isPackaged: app.isPackaged,
    actions: { openLogsFolder, copyDiagnostics, showAbout },
  })

  windowState = await readWindowState(userDataDir)
  openMainWindow(windowState)

  // Started once the window is on its way, not awaited: the embedded Sandbox replays its saved
  // state synchronously as it starts (a long history takes a while), which must not hold up the
  // window's creation; the renderer process starts and loads meanwhile.
  servicesStarted(
    createAppServices({
      userDataDir,
      keychain: new KeytarSecretStore(loadKeytarInElectron),
      info: { name: APP_NAME, version: app.getVersion(), transport: 'electron' },
      emit: (event, payload) => sendEvent(mainWindow, event, payload),
      desktop: createElectronDesktop(() => mainWindow),
      // The real updater replaces the placeholder once the log exists; the channels read through.
      updates: {
        status: () => updates.status(),
        restartToUpdate: (inFlight) => updates.restartToUpdate(inFlight),
      },
    }),
  )

  services = await servicesReady
  // electron-updater takes a few hundred milliseconds to require: loaded here, after the window
  // and the services, not with main's bundle before the window can open.
  const { startElectronUpdates } = await import('./updates/electron-updates')
  updates = startElectronUpdates({
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
  mainWindow = createMainWindow({
    preload: join(__dirname, '../preload/index.js'),
    appUrl,
    placement,
    onPlacementChanged(state) {
      windowState = state
      saveWindowState(userDataDir, state).catch((error: unknown) =>
        services?.log.warn('The window position could not be saved', error),
      )
    },
  })
  watchRenderer(mainWindow, {
    error: (message) => (services ? services.log.error(message) : console.error(message)),
    warn: (message) => (services ? services.log.warn(message) : console.warn(message)),
    info: (message) => services?.log.info(message),
  })
  mainWindow.on('closed', () => {
    mainWindow = null
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
