/** Desktop conventions: diagnostics, logs, updates (issue 10). */

export const desktopChannels = {} as const

export const desktopEvents = {} as const
