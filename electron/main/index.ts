/**
 * App lifecycle only: builds the services, registers IPC, opens the window. Everything else lives
 * in services that know nothing of Electron. The loopback test bridge is never started here.
 */
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { app, BrowserWindow } from 'electron'
import { createElectronDesktop } from './adapters/electron-desktop'
import { KeytarSecretStore } from './services/secrets/keytar-secret-store'
import type { KeytarModule } from './services/secrets/keytar-secret-store'
import { createAppServices } from './app-services'
import type { AppServices } from './app-services'
import { createRouter } from './ipc/router'
import { registerIpc, sendEvent } from './ipc/electron-transport'
import { mainWindowSenderPolicy } from './ipc/sender-policy'
import type { TrustedWindow } from './ipc/sender-policy'
import { createAppUrlMatcher } from './windows/app-url'
import { installAppGuards } from './windows/guards'
import { createMainWindow } from './windows/main-window'

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

// Every renderer sandboxed, whatever a window's own preferences say.
app.enableSandbox()

if (!app.requestSingleInstanceLock()) app.quit()

app.on('second-instance', () => {
  if (mainWindow) {
    if (mainWindow.isMinimized()) mainWindow.restore()
    mainWindow.focus()
  }
})

async function start(): Promise<void> {
  installAppGuards(isAppUrl)
  services = await createAppServices({
    userDataDir: app.getPath('userData'),
    keychain: new KeytarSecretStore(loadKeytarInElectron),
    info: { name: 'Payout Desk', version: app.getVersion(), transport: 'electron' },
    emit: (event, payload) => sendEvent(mainWindow, event, payload),
    desktop: createElectronDesktop(() => mainWindow),
  })
  registerIpc(
    createRouter({
      log: services.log,
      handlers: services.handlers,
      senderPolicy: mainWindowSenderPolicy(trustedMainWindow, isAppUrl),
    }),
  )
  openMainWindow()
}

function trustedMainWindow(): TrustedWindow | null {
  if (!mainWindow) return null
  const window = mainWindow
  return { webContentsId: window.webContents.id, isDestroyed: () => window.isDestroyed() }
}

function openMainWindow(): void {
  mainWindow = createMainWindow({ preload: join(__dirname, '../preload/index.js'), appUrl })
  mainWindow.on('closed', () => {
    mainWindow = null
  })
}

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit()
})

app.on('activate', () => {
  if (BrowserWindow.getAllWindows().length === 0 && services) openMainWindow()
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
