/** What the rest of main (the desktop channels, the menu) sees of updates. */
import type { UpdateStatus } from '../../../shared/domain/diagnostics'

export interface UpdateControl {
  status(): UpdateStatus
  /** Quits and installs the downloaded update; false when none is ready. */
  restartToUpdate(): boolean
}

/** Updates in a run that never checks (development, the Sandbox-only run, the test bridge). */
export function disabledUpdates(reason: string): UpdateControl {
  return {
    status: () => ({ state: 'disabled', reason }),
    restartToUpdate: () => false,
  }
}
