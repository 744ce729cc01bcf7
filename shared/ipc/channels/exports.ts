/** Exports to XLSX and CSV that are not one screen's own (decision 17): recent payouts from the journal. */
import { z } from 'zod'
import type { ExportResult } from '../../domain/export'
import { returns } from '../define'

export const exportFormat = z.enum(['xlsx', 'csv'])

export const exportChannels = {
  /** The journal's payouts (everything this desk sent), newest first, through the save dialog. */
  'exports:recentPayouts': { input: z.strictObject({ format: exportFormat }), result: returns<ExportResult>() },
} as const

export const exportEvents = {} as const
