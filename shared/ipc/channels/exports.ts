/** Exports to XLSX and CSV and offline review of exported files (issue 6). */

export const exportChannels = {} as const

export const exportEvents = {} as const
