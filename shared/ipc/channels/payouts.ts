/** Single payouts: name checks, sending, verification, the recent-payouts list (issue 6). */

export const payoutChannels = {} as const

export const payoutEvents = {} as const
