/** Cardholders and virtual cards (issue 8). */

export const cardChannels = {} as const

export const cardEvents = {} as const
