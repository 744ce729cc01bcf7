/** What every step of a run (name checks, submission, monitoring) works with. */
import type { Journal } from '../../../journal'
import type { RunAutosave } from '../autosave'
import type { RunApiFor, RunLog } from '../live-run'

export interface RunStepContext {
  apiFor: RunApiFor
  journal: Journal
  autosave: RunAutosave
  log?: RunLog
  /** The service is closing (the app quits): steps stop taking new work. */
  isClosed(): boolean
}
