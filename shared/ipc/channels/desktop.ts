/** Desktop conventions: Help / About, diagnostics for a support ticket, updates (decision 16). */
import type { AboutInfo, DiagnosticsCopied, UpdateStatus } from '../../domain/diagnostics'
import { noInput, returns } from '../define'

export const desktopChannels = {
  /** Versions, OS, log file and the profile modes in use (never names, URLs or keys). */
  'desktop:about': { input: noInput, result: returns<AboutInfo>() },
  /** Puts the diagnostics text (about + the last lines of the log) on the clipboard. */
  'desktop:copyDiagnostics': { input: noInput, result: returns<DiagnosticsCopied>() },
  'desktop:updateStatus': { input: noInput, result: returns<UpdateStatus>() },
  /** The user chose to restart now to install a downloaded update: refused while money is in flight. */
  'desktop:restartToUpdate': { input: noInput, result: returns<{ restarting: boolean; reason?: string }>() },
} as const

export const desktopEvents = {
  /** Help > About in the application menu: the renderer opens its About dialog. */
  'desktop:showAbout': returns<null>(),
  /** The update state changed (an update is downloading, or ready to install on restart). */
  'desktop:updateChanged': returns<UpdateStatus>(),
  /**
   * Browser only (the bridge): a service asked for an Open; the browser shows its file picker and
   * uploads the choice under `pick`, or cancels it (see shared/ipc/files.ts). The installed app
   * shows the native dialog instead and never sends this.
   */
  'desktop:chooseFile': returns<{ pick: string; title: string; accept: string[] }>(),
  /** Browser only: take off the clipboard what Payout Desk put there, if it is still there. */
  'desktop:clipboardClear': returns<null>(),
} as const
