/** What the rest of main (the desktop channels, the menu) sees of updates. */
import type { UpdateStatus } from '../../../shared/domain/diagnostics'
import type { RestartDecision } from './update-decision'

export interface UpdateControl {
  status(): UpdateStatus
  /** Quits and installs the downloaded update when it may (see restartDecision). */
  restartToUpdate(movementsInFlight: number): RestartDecision
}

/** Updates in a run that never checks (development, the Sandbox-only run, the test bridge). */
export function disabledUpdates(reason: string): UpdateControl {
  return {
    status: () => ({ state: 'disabled', reason }),
    restartToUpdate: () => ({ restart: false, reason }),
  }
}
