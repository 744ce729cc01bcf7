/**
 * The one masking of main, used by every sink that writes or shows text: the log (and through it
 * the log file), error texts the router returns, the journal's notes, and "Copy diagnostics".
 *
 * Three nets, each catching what the others cannot:
 * - by field: the value of a field named like card data or a credential (`"pin": "1234"`,
 *   `cvv=123`, `"otp":123456`, `secret_key=…`, `Authorization: Bearer …`, `https://user:pw@…`),
 *   whatever its length, in JSON (also JSON inside a JSON string) and in key=value text;
 * - by pattern: card numbers anywhere, by shape and Luhn (shared/rules/sensitive-data.ts);
 * - by registration: every key main has handled, and for as long as main holds them the card data
 *   it was given or fetched (a typed card number, CVV and PIN; a revealed PAN and CVV). Values of 8
 *   characters or more are masked wherever they appear; shorter ones (a CVV, a PIN, an OTP) where
 *   they stand on their own, never inside a longer number or word ("482" in "14823" is not a CVV).
 *
 * A registered value is held either for good (keys) or for a while (`hold`): released, it is gone
 * from main's memory as far as masking is concerned, so a revealed card number leaves main when it
 * is hidden again.
 */
import { cardNumbersIn, isMaskedFieldName, replaceCardNumbers } from '../../../../shared/rules/sensitive-data'

export const MASK = '[redacted]'

/** Values shorter than this are masked only as whole tokens; longer ones wherever they appear. */
export const SUBSTRING_SECRET_LENGTH = 8

export interface SecretRegistry {
  /** Masked for as long as main runs: keys. */
  add(value: string | null | undefined): void
  /**
   * Masked until the returned function is called, or `forMs` has passed (whichever is first):
   * card data main holds only for a while. Holding the same value twice needs two releases.
   */
  hold(values: ReadonlyArray<string | null | undefined>, options?: { forMs?: number }): () => void
  /** Whether the value is registered now. */
  has(value: string): boolean
  /** How many values are registered now. */
  readonly size: number
  /** The registered values, longest first. */
  values(): string[]
}

/** Keys at least this long also have their other forms masked (formsOf). */
const FORMS_FROM_LENGTH = 16

/**
 * The forms a service or a library might print a key in, besides the key itself: upper- and
 * lower-cased, base64 (standard and URL-safe, at each of the three byte alignments it can have
 * inside a longer encoded text, such as `Basic base64(user:key)`), and its long parts when split at
 * `_`, `-` or `.` (`sk_live_<tail>`: the tail alone is as secret).
 */
export function formsOf(value: string): string[] {
  const forms = new Set<string>([value.toUpperCase(), value.toLowerCase()])
  for (let offset = 0; offset < 3; offset++) {
    const encoded = Buffer.from('\u0000'.repeat(offset) + value, 'utf8').toString('base64')
    // The first group holds the bytes before it (at an offset), the last one the bytes after it.
    const core = encoded.slice(offset === 0 ? 0 : 4, -4)
    if (core.length >= SUBSTRING_SECRET_LENGTH) {
      forms.add(core)
      forms.add(core.replace(/\+/g, '-').replace(/\//g, '_'))
    }
  }
  for (const part of value.split(/[_.-]+/)) if (part.length >= 12 && part !== value) forms.add(part)
  forms.delete(value)
  return [...forms]
}

export function createSecretRegistry(): SecretRegistry {
  const permanent = new Set<string>()
  /** The other forms of the permanent keys (formsOf), masked with them. */
  const derived = new Set<string>()
  /** Held values with how many holds each has. */
  const held = new Map<string, number>()
  let ordered: string[] | null = null

  const usable = (value: string | null | undefined): value is string =>
    typeof value === 'string' && value.trim().length >= 3

  function release(values: string[]): void {
    for (const value of values) {
      const count = held.get(value) ?? 0
      if (count <= 1) held.delete(value)
      else held.set(value, count - 1)
    }
    ordered = null
  }

  return {
    add(value) {
      if (!usable(value) || permanent.has(value)) return
      permanent.add(value)
      if (value.length >= FORMS_FROM_LENGTH) for (const form of formsOf(value)) derived.add(form)
      ordered = null
    },
    hold(values, options = {}) {
      const taken = values.filter(usable)
      for (const value of taken) held.set(value, (held.get(value) ?? 0) + 1)
      ordered = null
      let released = false
      let timer: ReturnType<typeof setTimeout> | undefined
      const done = (): void => {
        if (released) return
        released = true
        if (timer) clearTimeout(timer)
        release(taken)
        taken.length = 0
      }
      if (options.forMs !== undefined) {
        timer = setTimeout(done, options.forMs)
        timer.unref?.()
      }
      return done
    },
    has: (value) => permanent.has(value) || held.has(value),
    get size() {
      return new Set([...permanent, ...held.keys()]).size
    },
    values() {
      ordered ??= [...new Set([...permanent, ...derived, ...held.keys()])].sort((a, b) => b.length - a.length)
      return ordered
    },
  }
}

// ---------- text ----------

/** `"key": value` with a JSON value (string, number, literal); the key and quotes as written. */
const JSON_FIELD = /"([A-Za-z0-9_.\- ]{1,60})"(\s*:\s*)("(?:[^"\\\n]|\\.)*"|-?\d[\d.eE+-]*|true|false)/g
/** The same inside a JSON string (a JSON text logged as a string): `\"key\": \"value\"`. */
const ESCAPED_JSON_FIELD = /\\"([A-Za-z0-9_.\- ]{1,60})\\"(\s*:\s*)(\\"(?:[^"\\\n]|\\[^"])*\\"|-?\d[\d.eE+-]*)/g
/** `key=value` as in a query string, a form body or a log line. */
const KEY_VALUE =
  /(?<![A-Za-z0-9_.-])([A-Za-z][A-Za-z0-9_.-]{0,60})(\s*=\s*)("[^"\n]*"|'[^'\n]*'|[^\s&#,;"'<>(){}[\]]+)/g
/** A header line: `Authorization: …`, `X-Api-Key: …`, `Cookie: …` to the end of the line. */
const HEADER =
  /(?<![A-Za-z0-9_-])(authorization|proxy-authorization|x-api-key|api-key|cookie|set-cookie)(\s*:\s*)([^\n"]+)/gi
/** A bearer credential wherever it is (other schemes only in a header line: "Basic" is also a word). */
const SCHEME_CREDENTIAL = /\b(Bearer)(\s+)([A-Za-z0-9._~+/=-]{6,})/g
/** `scheme://user:password@host`: the user information. */
const URL_CREDENTIALS = /(\b[a-z][a-z0-9+.-]*:\/\/)[^/\s@"']+@/gi

/** Every field pattern needs one of these; most log lines and notes have none and skip the patterns. */
const FIELD_MARKS = /["=:]|Bearer/

function maskFields(text: string): string {
  if (!FIELD_MARKS.test(text)) return text
  return text
    .replace(JSON_FIELD, (whole, key: string, colon: string) =>
      isMaskedFieldName(key) ? `"${key}"${colon}"${MASK}"` : whole,
    )
    .replace(ESCAPED_JSON_FIELD, (whole, key: string, colon: string) =>
      isMaskedFieldName(key) ? `\\"${key}\\"${colon}\\"${MASK}\\"` : whole,
    )
    .replace(HEADER, (_whole, name: string, colon: string) => `${name}${colon}${MASK}`)
    .replace(KEY_VALUE, (whole, key: string, equals: string) =>
      isMaskedFieldName(key) ? `${key}${equals}${MASK}` : whole,
    )
    .replace(SCHEME_CREDENTIAL, (_whole, scheme: string, space: string) => `${scheme}${space}${MASK}`)
    .replace(URL_CREDENTIALS, `$1${MASK}@`)
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

function maskRegistered(text: string, values: readonly string[], shortValues: boolean): string {
  let result = text
  for (const value of values) {
    if (!result.includes(value)) continue
    if (value.length >= SUBSTRING_SECRET_LENGTH) result = result.split(value).join(MASK)
    else if (shortValues) {
      // On its own: not inside a longer number or word, nor the whole part of a decimal (482.50).
      const token = new RegExp(`(?<![0-9A-Za-z])${escapeRegExp(value)}(?![0-9A-Za-z]|[.,][0-9])`, 'g')
      result = result.replace(token, MASK)
    }
  }
  return result
}

/**
 * The text with every secret the three nets know replaced by `[redacted]`. `shortValues: false`
 * leaves registered values under 8 characters alone: for a record that must stay exact (a journal
 * note), where a CVV held at that moment must not turn "row 123" into "row [redacted]".
 */
export function maskText(
  text: string,
  registry?: Pick<SecretRegistry, 'values'>,
  options: { shortValues?: boolean } = {},
): string {
  let result = maskFields(text)
  if (registry) result = maskRegistered(result, registry.values(), options.shortValues ?? true)
  return replaceCardNumbers(result, MASK)
}

/** True when the text holds a card number or a registered value of 8 characters or more. */
export function holdsSecret(text: string, registry?: Pick<SecretRegistry, 'values'>): 'card number' | 'secret' | null {
  if (cardNumbersIn(text).length > 0) return 'card number'
  if (registry) {
    for (const value of registry.values()) {
      if (value.length >= SUBSTRING_SECRET_LENGTH && text.includes(value)) return 'secret'
    }
  }
  return null
}

// ---------- structured values ----------

const MAX_DEPTH = 32

/**
 * A copy of a value (error details, a log object) with masked field values and every string masked.
 * Cycles and depths past 32 become "[…]"; keys such as `__proto__` stay plain own keys.
 */
export function maskValue<T>(value: T, registry?: Pick<SecretRegistry, 'values'>): T {
  const seen = new Set<object>()
  const walk = (item: unknown, depth: number): unknown => {
    if (typeof item === 'string') return maskText(item, registry)
    if (item === null || typeof item !== 'object') return item
    if (seen.has(item) || depth > MAX_DEPTH) return '[…]'
    seen.add(item)
    try {
      if (Array.isArray(item)) return item.map((inner) => walk(inner, depth + 1))
      const copy: Record<string, unknown> = {}
      for (const [key, inner] of Object.entries(item)) {
        const masked = isMaskedFieldName(key) && inner !== null && inner !== undefined ? MASK : walk(inner, depth + 1)
        Object.defineProperty(copy, key, { value: masked, enumerable: true, writable: true, configurable: true })
      }
      return copy
    } finally {
      seen.delete(item)
    }
  }
  return walk(value, 0) as T
}
