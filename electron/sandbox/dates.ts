/** Date formats of the spec. Everything is UTC so answers do not depend on the machine's zone. */

const pad = (n: number, width = 2): string => String(n).padStart(width, '0')

/** "YYYY-MM-DD HH:MM:SS" (payout history, 2.8). */
export function formatHistoryDate(epochMs: number): string {
  const d = new Date(epochMs)
  return (
    `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ` +
    `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`
  )
}

/** ISO 8601 with zone (bulk createdAt, card date_created). */
export function formatIsoDate(epochMs: number): string {
  return new Date(epochMs).toISOString()
}

function utcFromParts(parts: number[]): number | null {
  const [year = 0, month = 1, day = 1, hour = 0, minute = 0, second = 0] = parts
  const ms = Date.UTC(year, month - 1, day, hour, minute, second)
  const d = new Date(ms)
  // Reject dates that Date.UTC silently rolls over (2024-02-31 -> March).
  if (
    d.getUTCFullYear() !== year ||
    d.getUTCMonth() !== month - 1 ||
    d.getUTCDate() !== day ||
    d.getUTCHours() !== hour ||
    d.getUTCMinutes() !== minute ||
    d.getUTCSeconds() !== second
  ) {
    return null
  }
  return ms
}

/** Parses the history filter form "YYYY-MM-DD-HH-MM-SS" (UTC); null when malformed. */
export function parseHistoryFilterDate(text: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})-(\d{2})-(\d{2})-(\d{2})$/.exec(text)
  if (!match) return null
  return utcFromParts(match.slice(1).map(Number))
}

/** Parses "YYYY-MM-DD" (UTC midnight); null when malformed. */
export function parseDay(text: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text)
  if (!match) return null
  return utcFromParts(match.slice(1).map(Number))
}

export const DAY_MS = 24 * 60 * 60 * 1000
