/**
 * What counts as card data or a secret, said once for every sink: the metadata rules (forms and
 * main), the bulk validator, the journal's guard, the masking of logs, error texts and diagnostics,
 * the export and document guards, and the secret scan the tests run over every file they wrote.
 *
 * - By field: a name says its value is card data or a secret when one of its parts does (`pin`,
 *   `cvv`, `cvc`, `otp`, `pan`, `card number`, `secret`, `key`, `password`…), however the name is
 *   written: `card-pin`, `cvv_code`, `otpCode`, `cardPan`, `api-secret-key` (a 3-digit CVV looks
 *   like anything, so the name is what tells).
 * - By pattern: a card number is 13 to 19 digits starting with 2 to 6 (the payment-card industries
 *   of ISO/IEC 7812: Mastercard 2 and 5, Amex, JCB and Diners 3, Visa 4, Verve, Discover and
 *   UnionPay 6) passing the Luhn check, however it is written (`cardNumbersIn`). Dates, amounts,
 *   references, hashes and epoch milliseconds (which start with 1) are not card numbers.
 */

/** The parts of a field name, lower-case: `apiSecretKey`, `api-secret_key`, `API.SECRET key`. */
export function fieldNameParts(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((part) => part !== '')
}

/** Parts that make a name secret wherever they stand in it, with what they stand for. */
const SECRET_PARTS: Readonly<Record<string, string>> = {
  pan: 'a card number',
  cardnumber: 'a card number',
  cardno: 'a card number',
  cvv: 'a card security code',
  cvv2: 'a card security code',
  cvc: 'a card security code',
  cvc2: 'a card security code',
  csc: 'a card security code',
  pin: 'a card PIN',
  otp: 'a one-time password',
  chargedata: 'encrypted card data',
  secret: 'a secret or key',
  key: 'a secret or key',
  apikey: 'a secret or key',
  secretkey: 'a secret or key',
  privatekey: 'a secret or key',
  encryptionkey: 'a secret or key',
  password: 'a secret or key',
  passwd: 'a secret or key',
  passcode: 'a secret or key',
  authorization: 'a secret or key',
}

/** Two parts in a row that make a name secret: `card number`, `card no`, `security code`. */
const SECRET_PAIRS: Readonly<Record<string, string>> = {
  'card number': 'a card number',
  'card no': 'a card number',
  'card num': 'a card number',
  'security code': 'a card security code',
}

/**
 * Answers by name, kept: the journal's guard asks about every field of every record it writes
 * (a batch of 50 items is some 600 fields, under a dozen names), and a name's answer never changes.
 * Bounded: names made up from data (metadata keys) cannot grow it without end.
 */
const meaningByName = new Map<string, string | null>()
const MEANINGS_KEPT = 4096

/** What the name's value is, when the name says it is card data or a secret; else null. */
function secretMeaningOf(name: string): string | null {
  const kept = meaningByName.get(name)
  if (kept !== undefined) return kept
  const meaning = secretMeaningOfParts(name)
  if (meaningByName.size >= MEANINGS_KEPT) meaningByName.clear()
  meaningByName.set(name, meaning)
  return meaning
}

function secretMeaningOfParts(name: string): string | null {
  const parts = fieldNameParts(name)
  // `card.number` (a nested field) is the card's number; `number` alone is too (a card object).
  if (parts.length === 1 && parts[0] === 'number') return 'a card number'
  for (let i = 0; i < parts.length; i++) {
    const meaning = SECRET_PARTS[parts[i]!] ?? (i > 0 ? SECRET_PAIRS[`${parts[i - 1]} ${parts[i]}`] : undefined)
    if (meaning) return meaning
  }
  const joined = parts.join('')
  return SECRET_PARTS[joined] ?? null
}

/** `Card-Number`, `card_number` and `cardNumber` are one name; `card.number` is `number`. */
export function normaliseFieldName(name: string): string {
  const last = name.slice(name.lastIndexOf('.') + 1)
  return last.toLowerCase().replace(/[\s_-]/g, '')
}

/** True for a field name whose value is card data or a secret (`pin`, `card-pin`, `cvvCode`, `secret_key` …). */
export function isSecretFieldName(name: string): boolean {
  return secretMeaningOf(name.slice(name.lastIndexOf('.') + 1)) !== null
}

/** "a card PIN", "a card number", "a secret or key": what a secret field name stands for. */
export function secretFieldMeaning(name: string): string {
  return secretMeaningOf(name.slice(name.lastIndexOf('.') + 1)) ?? 'a secret or key'
}

/** Parts that make a name a credential, masked in logs and error texts on top of the secret ones. */
const CREDENTIAL_PARTS = new Set([
  'auth',
  'token',
  'session',
  'cookie',
  'signature',
  'bearer',
  'credential',
  'credentials',
  'pass',
])

/**
 * Field names masked in logs and error texts on top of the secret ones: credentials of any kind
 * (`token`, `access_token`, `x-api-key`, `session`, `cookie`, `signature`, anything with a part
 * key, token or secret, anything starting with auth or pass). Masking more than needed costs
 * nothing there.
 */
export function isMaskedFieldName(name: string): boolean {
  if (isSecretFieldName(name)) return true
  if (fieldNameParts(name).some((part) => CREDENTIAL_PARTS.has(part))) return true
  const normal = normaliseFieldName(name)
  return /^(auth|pass|session|cookie|setcookie|signature|bearer|credential)|(key|token|secret|password)$/.test(normal)
}

export function passesLuhn(digits: string): boolean {
  let sum = 0
  let double = false
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48
    if (double) {
      d *= 2
      if (d > 9) d -= 9
    }
    sum += d
    double = !double
  }
  return sum % 10 === 0
}

/** True when these digits (separators removed) are a card number: 13-19 digits, 2-6 first, Luhn. */
export function isCardNumberDigits(digits: string): boolean {
  if (digits.length < 13 || digits.length > 19) return false
  const first = digits.charCodeAt(0)
  return first >= 50 && first <= 54 && passesLuhn(digits)
}

/** Characters that show nothing and may sit inside a number to hide it: zero-width, soft hyphen, BOM. */
const INVISIBLE = /[\u00AD\u180E\u200B-\u200D\u2060\uFEFF]/u
const ANY_DIGIT = /\p{Nd}/u
const HEX_LETTER = /^[A-Fa-f]$/
/**
 * Separators people write between the groups of a card number: spaces of any width, dots, dashes of
 * any kind, slashes, underscores and middle dots. Never a comma, semicolon, tab, colon or quote:
 * those end a field (a CSV line's reference and amount are not one number).
 */
const SEPARATOR = /[ \u00a0\u1680\u2000-\u200a\u202f\u205f\u3000.\-/_\u2010-\u2015\u2212\u00b7\u2027\u2219]/u
/** At most this many separator characters between two groups ("4111 ‧ 1111" has three). */
const MAX_SEPARATOR_RUN = 3

/**
 * The ASCII value of any Unicode decimal digit (full-width, Arabic-Indic, Devanagari…): its
 * distance from the zero of its block of ten, found by walking down while the characters are digits.
 */
function digitValue(char: string): number {
  const code = char.charCodeAt(0)
  if (code >= 48 && code <= 57) return code - 48
  const folded = char.normalize('NFKC')
  if (folded.length === 1 && folded >= '0' && folded <= '9') return folded.charCodeAt(0) - 48
  const point = char.codePointAt(0)!
  let value = 0
  while (value < 9 && ANY_DIGIT.test(String.fromCodePoint(point - value - 1))) value += 1
  return value
}

interface DigitGroup {
  /** The group's digits in ASCII. */
  digits: string
  /** Where it starts and ends (exclusive) in the text as written. */
  start: number
  end: number
  /**
   * How many separator characters stand between it and the group before: null when a letter or a
   * line end stands between them (or it is the first), so the two are never one number.
   */
  gapBefore: number | null
  /** The separator characters between it and the group before (when gapBefore is a number). */
  separator: string
}

/** The runs of digits of a text (invisible characters inside a run ignored), with what is between. */
function digitGroups(text: string): DigitGroup[] {
  const groups: DigitGroup[] = []
  let current: DigitGroup | null = null
  let gap: number | null = null
  let offset = 0
  while (offset < text.length) {
    const code = text.charCodeAt(offset)
    // ASCII (every date, amount and reference) without a regular expression; the rest by Unicode class.
    const char = code < 128 ? '' : String.fromCodePoint(text.codePointAt(offset)!)
    const width = code < 128 ? 1 : char.length
    const isDigit = code < 128 ? code >= 48 && code <= 57 : ANY_DIGIT.test(char)
    if (isDigit) {
      if (!current) {
        current = {
          digits: '',
          start: offset,
          end: offset,
          gapBefore: groups.length === 0 ? null : gap,
          separator: groups.length === 0 || gap === null ? '' : text.slice(offset - gap, offset),
        }
        groups.push(current)
      }
      current.digits += code < 128 ? text[offset] : String(digitValue(char))
      current.end = offset + width
    } else if (code >= 128 && INVISIBLE.test(char)) {
      if (current) current.end = offset + width
    } else {
      if (current) {
        current = null
        gap = 0
      }
      const separates =
        code < 128 ? code === 32 || code === 45 || code === 46 || code === 47 || code === 95 : SEPARATOR.test(char)
      if (!separates) gap = null
      else if (gap !== null) gap += width
    }
    offset += width
  }
  return groups
}

/** The alphanumeric word a group sits in is a hexadecimal hash (letters a-f only): not a card. */
function inHexWord(text: string, group: DigitGroup): boolean {
  let hexLetters = 0
  for (let i = group.start - 1; i >= 0 && /[\p{L}\p{Nd}]/u.test(text[i]!); i--) {
    if (!HEX_LETTER.test(text[i]!) && !ANY_DIGIT.test(text[i]!)) return false
    if (HEX_LETTER.test(text[i]!)) hexLetters += 1
  }
  for (let i = group.end; i < text.length && /[\p{L}\p{Nd}]/u.test(text[i]!); i++) {
    if (!HEX_LETTER.test(text[i]!) && !ANY_DIGIT.test(text[i]!)) return false
    if (HEX_LETTER.test(text[i]!)) hexLetters += 1
  }
  return hexLetters > 0
}

/**
 * A UUID (8-4-4-4-12 hexadecimal digits, as a desk's id is written): its groups joined across the
 * dashes can read as a card number when the first ones hold no letter (about 1 in 5,000 random ids).
 */
const UUID =
  /(?<![\p{L}\p{Nd}-])[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}(?![\p{L}\p{Nd}-])/gu

/** Where the UUIDs of a text are: [start, end) of each. */
function uuidSpans(text: string): Array<[number, number]> {
  if (!text.includes('-')) return []
  return [...text.matchAll(UUID)].map((match) => [match.index, match.index + match[0].length])
}

/** Cheap first look: a card number needs 13 digits. Most texts stop here. */
function hasThirteenDigits(text: string): boolean {
  let digits = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (((code >= 48 && code <= 57) || (code > 127 && ANY_DIGIT.test(text[i]!))) && ++digits >= 13) return true
  }
  return false
}

/**
 * Where the card numbers of a text are: start and length of each, as written. A card number is
 * read however it is written: its digits in any script (full-width, Arabic-Indic…), split into
 * groups of three or more by any run of up to three separators (spaces of any width, dots, dashes,
 * slashes, mixed), invisible characters anywhere inside, and next to letters (`cardno4111…`). It is
 * never a part of a longer run of digits (a 30-digit trace id), never a run inside a hexadecimal
 * hash (a word of digits and the letters a to f only) or a UUID, and never a phone number written
 * with its plus (`+234 803 123 4567`).
 */
export function cardNumbersIn(text: string): Array<{ index: number; length: number }> {
  if (!hasThirteenDigits(text)) return []
  const groups = digitGroups(text)
  const uuids = uuidSpans(text)
  const inUuid = (start: number, end: number): boolean => uuids.some(([from, to]) => start >= from && end <= to)
  const found: Array<{ index: number; length: number }> = []
  let i = 0
  while (i < groups.length) {
    // "+234 803 123 4567" is a phone number (E.164): a card number never starts with a plus.
    if (text[groups[i]!.start - 1] === '+') {
      i += 1
      continue
    }
    let hit = -1
    let digits = ''
    for (let j = i; j < groups.length; j++) {
      const group = groups[j]!
      // Joined only across a short run of separators, and only after a group of three or more.
      if (j > i && (group.gapBefore === null || group.gapBefore > MAX_SEPARATOR_RUN)) break
      if (j > i && groups[j - 1]!.digits.length < 3) break
      digits += group.digits
      if (digits.length > 19) break
      // Two groups joined by one dot are a decimal number (an Excel date serial 46083.3456018519).
      const decimal = j === i + 1 && group.separator === '.'
      if (
        digits.length >= 13 &&
        isCardNumberDigits(digits) &&
        !decimal &&
        !(i === j && inHexWord(text, group)) &&
        !inUuid(groups[i]!.start, group.end)
      ) {
        hit = j
        break
      }
    }
    if (hit >= 0) {
      found.push({ index: groups[i]!.start, length: groups[hit]!.end - groups[i]!.start })
      i = hit + 1
    } else {
      i += 1
    }
  }
  return found
}

/** True when the text holds something that reads as a full card number. */
export function looksLikeCardNumber(text: string): boolean {
  return cardNumbersIn(text).length > 0
}

/** The text with every card number in it replaced. */
export function replaceCardNumbers(text: string, replacement: string): string {
  const found = cardNumbersIn(text)
  if (found.length === 0) return text
  let result = ''
  let from = 0
  for (const { index, length } of found) {
    result += text.slice(from, index) + replacement
    from = index + length
  }
  return result + text.slice(from)
}
