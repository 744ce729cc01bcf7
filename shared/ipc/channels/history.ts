/** The service's payout history (issue 6). */

export const historyChannels = {} as const

export const historyEvents = {} as const
