/** Bulk payouts from spreadsheets (issue 7). */

export const bulkChannels = {} as const

export const bulkEvents = {} as const
