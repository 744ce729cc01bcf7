/**
 * electron-updater wired to the pure decisions: check once at start in a packaged build, download
 * in the background, tell the user when the update is ready, install only when they ask.
 */
import { autoUpdater } from 'electron-updater'
import type { UpdateStatus } from '../../../shared/domain/diagnostics'
import type { UpdateControl } from './update-control'
import { disabledUpdates } from './update-control'
import { nextUpdateStatus, restartDecision, updateCheckPlan, updateNotice } from './update-decision'
import type { UpdaterEvent } from './update-decision'

export function startElectronUpdates(options: {
  isPackaged: boolean
  log: { info(message: string): void; warn(message: string, detail?: unknown): void }
  onStatus(status: UpdateStatus): void
  onNotice(message: string): void
}): UpdateControl {
  const plan = updateCheckPlan({ isPackaged: options.isPackaged, env: process.env })
  if (!plan.check) return disabledUpdates(plan.reason)

  let status: UpdateStatus = { state: 'idle' }
  function apply(event: UpdaterEvent): void {
    const next = nextUpdateStatus(status, event)
    const notice = updateNotice(status, next)
    status = next
    options.onStatus(status)
    if (notice) options.onNotice(notice)
  }

  autoUpdater.autoDownload = true
  // The user decides when to restart; an update left waiting still installs when they quit.
  autoUpdater.autoInstallOnAppQuit = true
  autoUpdater.on('checking-for-update', () => apply({ kind: 'checking' }))
  autoUpdater.on('update-available', (info) => apply({ kind: 'available', version: info.version }))
  autoUpdater.on('update-not-available', () => apply({ kind: 'not-available' }))
  autoUpdater.on('update-downloaded', (info) => {
    options.log.info(`Update ${info.version} downloaded; waiting for the user to restart`)
    apply({ kind: 'downloaded', version: info.version })
  })
  autoUpdater.on('error', (error) => {
    options.log.warn('Update check failed', error)
    apply({ kind: 'error', message: 'The update could not be checked or downloaded; the app keeps working.' })
  })
  autoUpdater.checkForUpdates().catch((error: unknown) => options.log.warn('Update check failed', error))

  return {
    status: () => status,
    restartToUpdate(movementsInFlight) {
      const decision = restartDecision(status, movementsInFlight)
      if (decision.restart) setImmediate(() => autoUpdater.quitAndInstall())
      return decision
    },
  }
}
