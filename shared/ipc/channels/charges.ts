/** Card charges and their authorization steps (issue 9). */

export const chargeChannels = {} as const

export const chargeEvents = {} as const
