/**
 * The part of Electron's main-process API the app uses, as one injected object: index.ts passes
 * the real module, tests pass a recording stand-in (no Electron binary is needed to prove what main
 * asks of Electron). Only types are imported here.
 */
import type * as ElectronModule from 'electron'

export type ElectronApi = Pick<
  typeof ElectronModule,
  | 'app'
  | 'BrowserWindow'
  | 'clipboard'
  | 'dialog'
  | 'ipcMain'
  | 'Menu'
  | 'nativeTheme'
  | 'Notification'
  | 'protocol'
  | 'screen'
  | 'session'
  | 'shell'
>
