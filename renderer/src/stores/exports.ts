import { defineStore } from 'pinia'
import { api } from '../api'
import type { ExportFormat, ExportResult } from '../../../shared/domain/export'
import type { Result } from '../../../shared/result'
import { callApi } from './call'

/** Exports that are not one screen's own: recent payouts (the journal's payouts). */
export const useExportsStore = defineStore('exports', () => {
  const recentPayouts = (format: ExportFormat): Promise<Result<ExportResult>> =>
    callApi(() => api.exports.recentPayouts({ format }))
  return { recentPayouts }
})
