/**
 * The one webPreferences factory: every window of the app is isolated, sandboxed and without Node.
 * Callers may only choose the preload and the session partition.
 */
import type { WebPreferences } from 'electron'

export function secureWebPreferences(options: { preload?: string; partition?: string } = {}): WebPreferences {
  return {
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    spellcheck: false,
    safeDialogs: true,
    ...(options.preload ? { preload: options.preload } : {}),
    ...(options.partition ? { partition: options.partition } : {}),
  }
}
