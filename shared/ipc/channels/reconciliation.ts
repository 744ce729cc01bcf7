/** Reconciling a period with the service (decision 118). */
import { z } from 'zod'
import { HISTORY_CURRENCIES } from '../../domain/history'
import type { ReconciliationProgress, ReconciliationView } from '../../reconciliation/reconciliation-view'
import { noInput, returns } from '../define'

const epochMs = z.number().int().min(0).max(8_640_000_000_000)

export const reconciliationChannels = {
  /** What the screen shows now (state lives in main). */
  'reconciliation:state': { input: noInput, result: returns<ReconciliationView>() },
  /**
   * Starts reconciling the active profile's period in main: reading the history, verifying what
   * it lacks by reference; progress comes as reconciliation:progress. Answers at once (running).
   */
  'reconciliation:start': {
    input: z
      .strictObject({ currency: z.enum(HISTORY_CURRENCIES), from: epochMs, to: epochMs })
      .refine((period) => period.from <= period.to, {
        message: 'the start of the period must not be after its end',
        path: ['to'],
      }),
    result: returns<ReconciliationView>(),
  },
  /** Stops between pages or verifies; nothing of an unfinished reading is kept. */
  'reconciliation:cancel': { input: noInput, result: returns<ReconciliationView>() },
} as const

export const reconciliationEvents = {
  'reconciliation:progress': returns<ReconciliationProgress>(),
} as const
