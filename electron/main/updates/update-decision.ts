/**
 * When to look for updates and what each updater event means for the user. Pure: the adapter
 * (electron-updates.ts) feeds electron-updater's events in and applies the answers.
 *
 * Updates are checked only by an installed (packaged) app: never in development, never in the
 * Sandbox-only run from a checkout, never in the test bridge. A downloaded update waits: the user
 * is told it is ready and decides when to restart, and a restart is refused while money is in flight.
 */
import type { UpdateStatus } from '../../../shared/domain/diagnostics'

export function updateCheckPlan(run: {
  isPackaged: boolean
  env: Record<string, string | undefined>
}): { check: true } | { check: false; reason: string } {
  if (!run.isPackaged) return { check: false, reason: 'Updates are checked only by the installed app.' }
  if (run.env['PAYOUT_DESK_DISABLE_UPDATES'] === '1') {
    return { check: false, reason: 'Updates were turned off for this computer (PAYOUT_DESK_DISABLE_UPDATES=1).' }
  }
  return { check: true }
}

export type UpdaterEvent =
  | { kind: 'checking' }
  | { kind: 'available'; version: string }
  | { kind: 'not-available' }
  | { kind: 'downloaded'; version: string }
  | { kind: 'error'; message: string }

export function nextUpdateStatus(current: UpdateStatus, event: UpdaterEvent): UpdateStatus {
  // A downloaded update stays ready whatever a later check says: it installs on restart.
  if (current.state === 'ready' || current.state === 'disabled') return current
  switch (event.kind) {
    case 'checking':
      return { state: 'checking' }
    case 'available':
      return { state: 'downloading', version: event.version }
    case 'not-available':
      return { state: 'none' }
    case 'downloaded':
      return { state: 'ready', version: event.version }
    case 'error':
      return { state: 'error', message: event.message }
  }
}

/** The notice to show when the status changed, if any: only "ready" interrupts the user. */
export function updateNotice(previous: UpdateStatus, next: UpdateStatus): string | null {
  if (next.state !== 'ready' || previous.state === 'ready') return null
  return `Payout Desk ${next.version} is ready to install. Restart when it suits you (Help > About); nothing is lost.`
}

export interface RestartDecision {
  restart: boolean
  reason?: string
}

/** Restart into the update only when one is ready and no money movement is waiting for its answer. */
export function restartDecision(status: UpdateStatus, movementsInFlight: number): RestartDecision {
  if (status.state !== 'ready') return { restart: false, reason: 'No update is ready to install.' }
  if (movementsInFlight > 0) {
    return {
      restart: false,
      reason: `${movementsInFlight} money movement${movementsInFlight === 1 ? ' is' : 's are'} waiting for an answer; restart when ${movementsInFlight === 1 ? 'it has' : 'they have'} finished.`,
    }
  }
  return { restart: true }
}
