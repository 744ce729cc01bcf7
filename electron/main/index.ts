/**
 * The installed app's entry: the real Electron module and the built files, handed to the
 * lifecycle in main-process.ts (which tests boot with a recording stand-in). The loopback test
 * bridge is never started here.
 */
import { join } from 'node:path'
import type * as ElectronModule from 'electron'
import { keepHeapSmall } from './heap-policy'
import { startMainProcess } from './main-process'
import { KeytarSecretStore } from './services/secrets/keytar-secret-store'
import type { KeytarModule } from './services/secrets/keytar-secret-store'

// A plain require: this bundle is CommonJS and the whole module object is handed on as it is.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const electron = require('electron') as typeof ElectronModule

/**
 * A plain require too: Electron's dynamic import() cannot always resolve packages inside an asar
 * archive. Lazy, so a missing libsecret becomes a message, not a crash.
 */
async function loadKeytarInElectron(): Promise<KeytarModule> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('keytar') as KeytarModule
}

// Before any service holds data: main collects at ~2x what is live, not 4x (heap-policy.ts).
keepHeapSmall()

startMainProcess(electron, {
  rendererDir: join(__dirname, '../renderer'),
  preloadPath: join(__dirname, '../preload/index.js'),
  devServerUrl: electron.app.isPackaged ? undefined : process.env['ELECTRON_RENDERER_URL'],
  keychain: new KeytarSecretStore(loadKeytarInElectron),
})
