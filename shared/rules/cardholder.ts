/**
 * Rules of the cardholder form (spec 2.13 and 8), used as the user types and again by main before
 * anything is sent. Each returns a plain-language problem, or null when the value is fine.
 */
import { COUNTRY_IDENTITY_TYPES, IDENTITY_TYPES } from '../domain/cards'
import type { CardholderDraft, IdentityFileKind } from '../domain/cards'
import { emailProblem } from './common'

/** ISO 3166-1 alpha-2: the officially assigned codes (249). Names come from Intl.DisplayNames. */
// prettier-ignore
export const ISO_COUNTRY_CODES = [
  'AD', 'AE', 'AF', 'AG', 'AI', 'AL', 'AM', 'AO', 'AQ', 'AR', 'AS', 'AT', 'AU', 'AW', 'AX', 'AZ',
  'BA', 'BB', 'BD', 'BE', 'BF', 'BG', 'BH', 'BI', 'BJ', 'BL', 'BM', 'BN', 'BO', 'BQ', 'BR', 'BS',
  'BT', 'BV', 'BW', 'BY', 'BZ', 'CA', 'CC', 'CD', 'CF', 'CG', 'CH', 'CI', 'CK', 'CL', 'CM', 'CN',
  'CO', 'CR', 'CU', 'CV', 'CW', 'CX', 'CY', 'CZ', 'DE', 'DJ', 'DK', 'DM', 'DO', 'DZ', 'EC', 'EE',
  'EG', 'EH', 'ER', 'ES', 'ET', 'FI', 'FJ', 'FK', 'FM', 'FO', 'FR', 'GA', 'GB', 'GD', 'GE', 'GF',
  'GG', 'GH', 'GI', 'GL', 'GM', 'GN', 'GP', 'GQ', 'GR', 'GS', 'GT', 'GU', 'GW', 'GY', 'HK', 'HM',
  'HN', 'HR', 'HT', 'HU', 'ID', 'IE', 'IL', 'IM', 'IN', 'IO', 'IQ', 'IR', 'IS', 'IT', 'JE', 'JM',
  'JO', 'JP', 'KE', 'KG', 'KH', 'KI', 'KM', 'KN', 'KP', 'KR', 'KW', 'KY', 'KZ', 'LA', 'LB', 'LC',
  'LI', 'LK', 'LR', 'LS', 'LT', 'LU', 'LV', 'LY', 'MA', 'MC', 'MD', 'ME', 'MF', 'MG', 'MH', 'MK',
  'ML', 'MM', 'MN', 'MO', 'MP', 'MQ', 'MR', 'MS', 'MT', 'MU', 'MV', 'MW', 'MX', 'MY', 'MZ', 'NA',
  'NC', 'NE', 'NF', 'NG', 'NI', 'NL', 'NO', 'NP', 'NR', 'NU', 'NZ', 'OM', 'PA', 'PE', 'PF', 'PG',
  'PH', 'PK', 'PL', 'PM', 'PN', 'PR', 'PS', 'PT', 'PW', 'PY', 'QA', 'RE', 'RO', 'RS', 'RU', 'RW',
  'SA', 'SB', 'SC', 'SD', 'SE', 'SG', 'SH', 'SI', 'SJ', 'SK', 'SL', 'SM', 'SN', 'SO', 'SR', 'SS',
  'ST', 'SV', 'SX', 'SY', 'SZ', 'TC', 'TD', 'TF', 'TG', 'TH', 'TJ', 'TK', 'TL', 'TM', 'TN', 'TO',
  'TR', 'TT', 'TV', 'TW', 'TZ', 'UA', 'UG', 'UM', 'US', 'UY', 'UZ', 'VA', 'VC', 'VE', 'VG', 'VI',
  'VN', 'VU', 'WF', 'WS', 'YE', 'YT', 'ZA', 'ZM', 'ZW',
] as const
const COUNTRY_CODE_SET: ReadonlySet<string> = new Set(ISO_COUNTRY_CODES)

export function countryCodeProblem(code: string): string | null {
  if (code.trim() === '') return 'Choose a country.'
  if (!COUNTRY_CODE_SET.has(code)) return 'Use an ISO 3166 alpha-2 country code (for example NG).'
  return null
}

export function bvnProblem(text: string): string | null {
  if (text.trim() === '') return 'Enter the BVN.'
  if (!/^\d{11}$/.test(text)) return 'A BVN is exactly 11 digits.'
  return null
}

export function identityTypeProblem(type: string): string | null {
  return (IDENTITY_TYPES as readonly string[]).includes(type)
    ? null
    : "Choose the identity document: NIN, voter's card, driver's licence or passport."
}

export function countryIdentityTypeProblem(type: string): string | null {
  return (COUNTRY_IDENTITY_TYPES as readonly string[]).includes(type) ? null : 'The country identity must be a BVN.'
}

export const ADULT_AGE = 18

/** Today's date on this machine as YYYY-MM-DD (the user's calendar, not UTC). */
export function localDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`
}

function isRealDay(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text)
  if (!match) return false
  const [, y, m, d] = match.map(Number) as [number, number, number, number]
  const date = new Date(Date.UTC(y, m - 1, d))
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d
}

/**
 * Date of birth as YYYY-MM-DD of a holder who is 18 or older on `today` (YYYY-MM-DD). The 18th
 * birthday itself counts; someone born on 29 February comes of age on 1 March in common years.
 */
export function dateOfBirthProblem(text: string, today: string): string | null {
  if (text.trim() === '') return 'Enter the date of birth.'
  if (!isRealDay(text)) return 'Use a real date in the form YYYY-MM-DD.'
  if (text > today) return 'The date of birth is in the future.'
  if (text < '1900-01-01') return 'The date of birth is before 1900.'
  const year = Number(text.slice(0, 4))
  const comesOfAge = `${String(year + ADULT_AGE).padStart(4, '0')}${text.slice(4)}`
  if (comesOfAge > today) return `The cardholder must be at least ${ADULT_AGE} years old.`
  return null
}

export function phoneProblem(text: string): string | null {
  if (text.trim() === '') return null
  if (!/^\+?\d{7,15}$/.test(text.trim())) return 'Use 7 to 15 digits, optionally starting with +.'
  return null
}

function requiredText(label: string, max = 100) {
  return (text: string): string | null => {
    if (text.trim() === '') return `Enter the ${label}.`
    if (text.length > max) return `The ${label} is longer than ${max} characters.`
    return null
  }
}

/** Every problem of a cardholder draft, keyed by the field path the service uses (`address.city`). */
export function cardholderProblems(draft: CardholderDraft, today: string): Record<string, string> {
  const checks: Array<[string, string | null]> = [
    ['first_name', requiredText('first name')(draft.first_name)],
    ['last_name', requiredText('last name')(draft.last_name)],
    ['email', emailProblem(draft.email)],
    ['phone', phoneProblem(draft.phone ?? '')],
    ['date_of_birth', dateOfBirthProblem(draft.date_of_birth, today)],
    ['address.street', requiredText('street')(draft.address.street)],
    ['address.city', requiredText('city')(draft.address.city)],
    ['address.state', requiredText('state')(draft.address.state)],
    ['address.country', countryCodeProblem(draft.address.country)],
    ['address.zip_code', requiredText('zip code', 20)(draft.address.zip_code)],
    ['country_identity.type', countryIdentityTypeProblem(draft.country_identity.type)],
    ['country_identity.number', bvnProblem(draft.country_identity.number)],
    ['identity.type', identityTypeProblem(draft.identity.type)],
    ['identity.number', requiredText('document number', 50)(draft.identity.number)],
    ['identity.country', countryCodeProblem(draft.identity.country)],
  ]
  return Object.fromEntries(checks.filter((entry): entry is [string, string] => entry[1] !== null))
}

/** 5 MB: the service states no limit, so the desk keeps documents to a size any service accepts. */
export const IDENTITY_FILE_MAX_BYTES = 5 * 1024 * 1024

/** The kind of a document from its first bytes (never from its name). */
export function identityFileKind(head: Uint8Array): IdentityFileKind | null {
  const starts = (...bytes: number[]) => bytes.every((byte, index) => head[index] === byte)
  if (starts(0xff, 0xd8, 0xff)) return 'jpeg'
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'png'
  if (starts(0x25, 0x50, 0x44, 0x46, 0x2d)) return 'pdf' // %PDF-
  return null
}

const IDENTITY_KIND_NAMES: Readonly<Record<IdentityFileKind, string>> = {
  jpeg: 'JPEG image',
  png: 'PNG image',
  pdf: 'PDF',
}

/**
 * Whether a document of this kind ends the way a whole one does, from its last bytes: a PNG with its
 * IEND chunk, a JPEG with its end-of-image marker, a PDF with %%EOF (all allowing some trailing
 * bytes). A file cut short (a broken download, a scan stopped half-way) is refused with the reason,
 * rather than sent and refused by the service, or shown as a broken preview.
 */
export function identityFileEndProblem(kind: IdentityFileKind, tail: Uint8Array): string | null {
  const text = Array.from(tail, (byte) => String.fromCharCode(byte)).join('')
  const whole =
    kind === 'png' ? text.includes('IEND') : kind === 'jpeg' ? text.includes('\xff\xd9') : text.includes('%%EOF')
  return whole
    ? null
    : `The file starts as a ${IDENTITY_KIND_NAMES[kind]} but is cut short (it has no end): save or scan the document again.`
}

/** How many of a document's last bytes `identityFileEndProblem` needs. */
export const IDENTITY_FILE_TAIL_BYTES = 1024

export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`
}

/** A document's problem from its size and first bytes, or its kind when it is acceptable. */
export function identityFileProblem(
  head: Uint8Array,
  size: number,
): { kind: IdentityFileKind; problem: null } | { kind: null; problem: string } {
  if (size === 0) return { kind: null, problem: 'The file is empty.' }
  if (size > IDENTITY_FILE_MAX_BYTES) {
    return {
      kind: null,
      problem: `The file is larger than the 5 MB limit (${formatFileSize(size)}). Scan or export it at a lower resolution.`,
    }
  }
  const kind = identityFileKind(head)
  if (!kind)
    return { kind: null, problem: 'The file is not a JPEG, PNG or PDF (checked by its content, not its name).' }
  return { kind, problem: null }
}
