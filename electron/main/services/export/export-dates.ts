/**
 * Dates in exports, both ways. Every date this desk exports is an instant in UTC: the service's
 * history dates ("YYYY-MM-DD HH:MM:SS", spec 2.8, UTC), its ISO 8601 times (bulk, cards) and the
 * journal's. So a date cell is that instant, written in UTC and labelled so in its column header
 * ("Created (UTC)"): in XLSX a real Excel date (a serial number of days since 1899-12-30 with a
 * date-and-time number format), in CSV ISO 8601 text with its zone ("2026-03-01T10:20:30Z").
 * Reading either back gives the same canonical ISO text.
 */

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?)?$/

const MS_PER_DAY = 86_400_000
/** 1970-01-01 as an Excel serial (the 1900 date system, which counts 1900-02-29). */
const EPOCH_SERIAL = 25_569
/** Before 1900-03-01 Excel's serials are off by one (the phantom 1900-02-29): no export has such dates. */
const FIRST_EXACT_MS = Date.UTC(1900, 2, 1)

/** The instant a date text names, in ms since the epoch; null when it is not a date. */
export function parseExportDate(text: string): number | null {
  const match = ISO_DATE.exec(text.trim())
  if (!match) return null
  const [, y, mo, d, h = '0', mi = '0', s = '0', fraction = '', zone] = match
  const parts = [y, mo, d, h, mi, s].map(Number) as [number, number, number, number, number, number]
  const [year, month, day, hour, minute, second] = parts
  const utc = Date.UTC(year, month - 1, day, hour, minute, second, Number(fraction.padEnd(3, '0').slice(0, 3)))
  const check = new Date(utc)
  // Date.UTC rolls 2026-02-31 over into March: that is not a date.
  if (
    check.getUTCFullYear() !== year ||
    check.getUTCMonth() !== month - 1 ||
    check.getUTCDate() !== day ||
    check.getUTCHours() !== hour ||
    check.getUTCMinutes() !== minute ||
    check.getUTCSeconds() !== second
  ) {
    return null
  }
  if (!zone || zone === 'Z') return utc
  const sign = zone.startsWith('-') ? -1 : 1
  const digits = zone.slice(1).replace(':', '')
  const offsetMinutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))
  return utc - sign * offsetMinutes * 60_000
}

/** The canonical text of an instant: ISO 8601 in UTC, milliseconds only when there are some. */
export function isoUtc(ms: number): string {
  const iso = new Date(ms).toISOString()
  return iso.endsWith('.000Z') ? `${iso.slice(0, 19)}Z` : iso
}

/** The Excel serial of an instant, as the text of a cell value. */
export function excelSerial(ms: number): string {
  return String(ms / MS_PER_DAY + EPOCH_SERIAL)
}

/** The instant of an Excel serial, to the millisecond; null when it is not one we could have written. */
export function fromExcelSerial(serial: number): number | null {
  if (!Number.isFinite(serial)) return null
  const ms = Math.round((serial - EPOCH_SERIAL) * MS_PER_DAY)
  return ms >= FIRST_EXACT_MS && ms <= 8_640_000_000_000 ? ms : null
}

/** Whether a spreadsheet can hold the instant as a date cell. */
export function isSheetDate(ms: number): boolean {
  return ms >= FIRST_EXACT_MS && ms <= Date.UTC(9999, 11, 31, 23, 59, 59)
}
