/**
 * What counts as card data or a secret, said once for every guard: the metadata rules (forms and
 * main), the journal's guard, the masking of logs, error texts and diagnostics, and the export guard.
 *
 * - By field: names such as `pin`, `cvv`, `otp`, `pan`, `number` or `secret_key` say that their value
 *   is card data or a secret, whatever the value looks like (a 3-digit CVV looks like anything).
 * - By pattern: a card number is 13 to 19 digits, written together or in groups of four (or 4-6-5)
 *   separated by single spaces or dashes, starting with 2 to 6 (the payment-card industries of
 *   ISO/IEC 7812: Mastercard 2 and 5, Amex, JCB and Diners 3, Visa 4, Verve, Discover and
 *   UnionPay 6), passing the Luhn check, and standing on its own (not inside a longer run of letters
 *   or digits, such as a hash or a 30-digit trace id). Dates, amounts, references and epoch
 *   milliseconds (which start with 1) are not card numbers.
 */

/** Field names whose values are card data or secrets; compared by `normaliseFieldName`. */
export const SECRET_FIELD_NAMES: ReadonlySet<string> = new Set([
  'pan',
  'cvv',
  'cvv2',
  'cvc',
  'cvc2',
  'csc',
  'pin',
  'otp',
  'number',
  'cardnumber',
  'cardno',
  'chargedata',
  'secret',
  'secretkey',
  'encryptionkey',
  'apikey',
  'privatekey',
  'password',
  'passcode',
  'authorization',
])

/** What each name stands for, for messages that say why a name is refused. */
const MEANING: Readonly<Record<string, string>> = {
  pan: 'a card number',
  number: 'a card number',
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
}

/** `Card-Number`, `card_number` and `cardNumber` are one name; `card.number` is `number`. */
export function normaliseFieldName(name: string): string {
  const last = name.slice(name.lastIndexOf('.') + 1)
  return last.toLowerCase().replace(/[\s_-]/g, '')
}

/** True for a field name whose value is card data or a secret (`pin`, `CVV`, `secret_key` …). */
export function isSecretFieldName(name: string): boolean {
  return SECRET_FIELD_NAMES.has(normaliseFieldName(name))
}

/** "a card PIN", "a card number", "a secret or key": what a secret field name stands for. */
export function secretFieldMeaning(name: string): string {
  return MEANING[normaliseFieldName(name)] ?? 'a secret or key'
}

/**
 * Field names masked in logs and error texts on top of the secret ones: credentials of any kind
 * (`token`, `access_token`, `x-api-key`, `session`, `cookie`, `signature`, anything ending in key,
 * token or secret, anything starting with auth or pass). Masking more than needed costs nothing there.
 */
export function isMaskedFieldName(name: string): boolean {
  const normal = normaliseFieldName(name)
  if (SECRET_FIELD_NAMES.has(normal)) return true
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

/** 13 to 19 digits together, or 4-4-4-1..4(-1..3) or 4-6-4/5 with one kind of separator. */
const CANDIDATE =
  /(?<![0-9A-Za-z])(?:\d{13,19}|\d{4}([ -])\d{4}\1\d{4}\1\d{1,4}(?:\1\d{1,3})?|\d{4}([ -])\d{6}\2\d{4,5})(?![0-9A-Za-z])/g

/** True when these digits (separators removed) are a card number: 13-19 digits, 2-6 first, Luhn. */
export function isCardNumberDigits(digits: string): boolean {
  if (digits.length < 13 || digits.length > 19) return false
  const first = digits.charCodeAt(0)
  return first >= 50 && first <= 54 && passesLuhn(digits)
}

/** Cheap first look: a card number needs 13 digits. Most texts stop here. */
function hasThirteenDigits(text: string): boolean {
  let digits = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code >= 48 && code <= 57 && ++digits >= 13) return true
  }
  return false
}

/** Where the card numbers of a text are: start and length of each, as written. */
export function cardNumbersIn(text: string): Array<{ index: number; length: number }> {
  if (!hasThirteenDigits(text)) return []
  const found: Array<{ index: number; length: number }> = []
  for (const match of text.matchAll(CANDIDATE)) {
    if (isCardNumberDigits(match[0].replace(/[ -]/g, ''))) found.push({ index: match.index, length: match[0].length })
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
