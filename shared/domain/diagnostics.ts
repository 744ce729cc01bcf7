/** What Help / About shows and what "Copy diagnostics" puts on the clipboard. */
import type { ProfileMode } from './profiles'

export interface AboutInfo {
  name: string
  version: string
  transport: 'electron' | 'bridge'
  /** Versions of the runtime parts: Electron and Chromium only in the desktop app. */
  runtime: { electron?: string; chrome?: string; node: string }
  os: { platform: string; release: string; arch: string }
  /** The log file, for "Open logs folder" and support. */
  logFile: string
  /** How many profiles of each mode exist, and the active profile's mode: no names, URLs or keys. */
  profileModes: { active: ProfileMode | null; counts: Record<ProfileMode, number> }
}

/** What "Copy diagnostics" copied. */
export interface DiagnosticsCopied {
  /** The text as copied, so the user sees exactly what goes into their ticket. */
  text: string
  logLines: number
}

/** The state of updates in this run: never checked outside packaged builds. */
export type UpdateStatus =
  | { state: 'disabled'; reason: string }
  | { state: 'idle' | 'checking' | 'none' }
  | { state: 'downloading'; version: string }
  | { state: 'ready'; version: string }
  | { state: 'error'; message: string }
