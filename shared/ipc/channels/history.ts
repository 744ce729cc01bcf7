/** The service's payout history, and offline review of exported history. */
import { z } from 'zod'
import type { ExportResult } from '../../domain/export'
import type { HistoryState, LoadAllProgress } from '../../domain/history'
import { HISTORY_CURRENCIES } from '../../domain/history'
import { droppedFile, noInput, returns } from '../define'

const epochMs = z.number().int().min(0).max(8_640_000_000_000)

export const historyFilter = z
  .strictObject({
    currency: z.enum(HISTORY_CURRENCIES).optional(),
    from: epochMs.optional(),
    to: epochMs.optional(),
  })
  .refine((filter) => filter.from === undefined || filter.to === undefined || filter.from <= filter.to, {
    message: 'the start of the date range must not be after its end',
    path: ['to'],
  })

export const historyChannels = {
  /** What the screen shows now (state lives in main). */
  'history:state': { input: noInput, result: returns<HistoryState>() },
  /** One page: the first (newest), or the older / newer one next to what is shown. */
  'history:page': {
    input: z.strictObject({
      filter: historyFilter,
      limit: z.number().int().min(1).max(100),
      direction: z.enum(['first', 'older', 'newer']),
    }),
    result: returns<HistoryState>(),
  },
  /** Starts loading every page of the range in main; progress comes as history:loadProgress. */
  'history:loadAll': { input: z.strictObject({ filter: historyFilter }), result: returns<HistoryState>() },
  'history:cancelLoadAll': { input: noInput, result: returns<HistoryState>() },
  /**
   * Exports, through the save dialog, the rows the screen shows: what is loaded, narrowed by the
   * screen's filters (offline) and its search, exactly as the screen narrows it (historyShown).
   */
  'history:export': {
    input: z.strictObject({
      format: z.enum(['xlsx', 'csv']),
      view: z.strictObject({ filter: historyFilter, search: z.string().max(500) }),
    }),
    result: returns<ExportResult>(),
  },
  /** Offline review: an exported file chosen with Open (unchanged state when cancelled)... */
  'history:openFile': { input: noInput, result: returns<HistoryState>() },
  /** ...or dropped onto the screen. */
  'history:openDropped': { input: droppedFile, result: returns<HistoryState>() },
  /** Stops reading the file being opened for review; the open answers the state as it was. */
  'history:cancelOpen': { input: noInput, result: returns<HistoryState>() },
  'history:closeOffline': { input: noInput, result: returns<HistoryState>() },
} as const

export const historyEvents = {
  'history:loadProgress': returns<LoadAllProgress>(),
} as const
