/**
 * Instants as the screens show them (decision 60): one format everywhere, in the user's locale and
 * time zone (the operating system's, which Electron gives the window), with the date, the time to
 * the second and no zone name, since every time on screen is in the same zone. The service's
 * history dates ("YYYY-MM-DD HH:MM:SS", UTC) and the journal's ISO instants read alike.
 *
 * Documents and exports keep their own stated forms: a PDF says the zone it was told in
 * (documents/document-words.ts), an export is UTC and says so in its headers.
 */
import { historyDateMs } from '../domain/history'

/** Locale and zone: the user's by default; tests and callers may name them. */
export interface DateSetting {
  locale?: string
  timeZone?: string
}

/** Epoch ms of an instant given as ms, a Date, an ISO string or the service's UTC form; NaN when unreadable. */
export function instantOf(value: string | number | Date): number {
  if (typeof value === 'number') return value
  if (value instanceof Date) return value.getTime()
  const service = historyDateMs(value)
  // Only an ISO text with its zone: "2026-03-01 10:20:30" without one is the service's UTC form, never local.
  return Number.isNaN(service) ? Date.parse(value) : service
}

const formats = new Map<string, Intl.DateTimeFormat>()
type FormatKind = 'dateTime' | 'day' | 'time' | 'dayKey'
const OPTIONS: Readonly<Record<FormatKind, Intl.DateTimeFormatOptions>> = {
  dateTime: { dateStyle: 'medium', timeStyle: 'medium' },
  day: { dateStyle: 'medium' },
  time: { timeStyle: 'medium' },
  dayKey: { year: 'numeric', month: '2-digit', day: '2-digit' },
}
function formatOf(kind: FormatKind, setting: DateSetting): Intl.DateTimeFormat {
  const key = `${kind}\u0000${setting.locale ?? ''}\u0000${setting.timeZone ?? ''}`
  let format = formats.get(key)
  if (!format) {
    format = new Intl.DateTimeFormat(setting.locale, { ...OPTIONS[kind], timeZone: setting.timeZone })
    formats.set(key, format)
  }
  return format
}

function shown(kind: FormatKind, value: string | number | Date, setting: DateSetting): string {
  const at = instantOf(value)
  return Number.isNaN(at) ? String(value) : formatOf(kind, setting).format(at)
}

/** "1 Mar 2026, 11:20:30" (en-GB), "Mar 1, 2026, 11:20:30 AM" (en-US): an instant on screen. */
export function dateTimeText(value: string | number | Date, setting: DateSetting = {}): string {
  return shown('dateTime', value, setting)
}

/** "1 Mar 2026": the day of an instant, in the same format. */
export function dayOfText(value: string | number | Date, setting: DateSetting = {}): string {
  return shown('day', value, setting)
}

/** "11:20:30": the time of an instant, where the day is plainly today. */
export function timeOfText(value: string | number | Date, setting: DateSetting = {}): string {
  return shown('time', value, setting)
}

/** The day an instant falls on in the zone, as YYYY-MM-DD (a key that sorts by date). */
export function dayKeyOf(value: string | number | Date, setting: Pick<DateSetting, 'timeZone'> = {}): string {
  const at = instantOf(value)
  if (Number.isNaN(at)) return String(value).slice(0, 10)
  const parts = formatOf('dayKey', { locale: 'en-US', timeZone: setting.timeZone }).formatToParts(at)
  const part = (type: Intl.DateTimeFormatPartTypes): string => parts.find((p) => p.type === type)?.value ?? ''
  return `${part('year')}-${part('month')}-${part('day')}`
}
