/**
 * Rules shared by every money form and importer: amounts, e-mail addresses, metadata (spec 8).
 * Each returns a plain-language problem, or null when the value is fine, so forms can show it
 * inline and main can refuse the same value with the same words.
 */
import { isSecretFieldName, looksLikeCardNumber, secretFieldMeaning } from './sensitive-data'
import { readAmount } from '../read-amount'
import { words } from '../text-compare'
import { METADATA_KEY_MAX_LENGTH, METADATA_MAX_KEYS } from './spec-limits'

/**
 * An amount typed by a person, by the app's one amount reader (shared/read-amount.ts): "1500.50",
 * "1,500.50", "1 500.50", or with the sign or code of `currency` ("₦1,500.50", "NGN 1,500.50").
 * The problem in words, or null when it can be paid.
 */
export function amountProblem(text: string, currency?: string): string | null {
  const reading = readAmount(text, currency)
  return reading.ok ? null : reading.problem.message
}

/** The plain decimal ("1500.50") of an amount typed by a person, or null when it has a problem. */
export function typedAmount(text: string, currency?: string): string | null {
  const reading = readAmount(text, currency)
  return reading.ok ? reading.amount : null
}

const EMAIL =
  /^[^\s@"(),:;<>[\\\]]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/

export function emailProblem(text: string): string | null {
  const trimmed = text.trim()
  if (trimmed === '') return 'Enter an e-mail address.'
  if (trimmed.length > 254 || !EMAIL.test(trimmed)) return 'This is not a valid e-mail address.'
  return null
}

const METADATA_KEY = /^[A-Za-z0-9-]+$/

/**
 * Spec section 8: a JSON object of at most 5 keys, each key at most 20 characters of A-Z a-z 0-9
 * and -, never an empty object (leave metadata out instead). And ours: metadata is sent to the
 * service in the clear and kept in the desk's journal, so a key named like card data or a secret
 * (`pin`, `cvv`, `number`, `secret-key` …) and a value holding a card number are refused up front,
 * with the reason, rather than by the journal's guard after the user pressed Send. Returns every
 * problem, by key.
 */
export function metadataProblems(entries: ReadonlyArray<{ key: string; value: string }>): string[] {
  const problems: string[] = []
  if (entries.length > METADATA_MAX_KEYS) problems.push(`At most ${METADATA_MAX_KEYS} metadata keys are allowed.`)
  const seen = new Set<string>()
  entries.forEach(({ key, value }, index) => {
    const label = key === '' ? `Key ${index + 1}` : `Key "${key}"`
    if (key === '') problems.push(`${label} is empty.`)
    else if (key.length > METADATA_KEY_MAX_LENGTH)
      problems.push(`${label} is longer than ${METADATA_KEY_MAX_LENGTH} characters.`)
    else if (!METADATA_KEY.test(key)) problems.push(`${label} may use only letters A-Z, a-z, digits and -.`)
    else if (isSecretFieldName(key))
      problems.push(
        `${label} is the name of ${secretFieldMeaning(key)}: metadata is sent in the clear and kept in this desk's journal, where card data and secrets never go. Use another name.`,
      )
    if (key !== '' && seen.has(key)) problems.push(`${label} appears twice.`)
    seen.add(key)
    if (looksLikeCardNumber(value))
      problems.push(
        `The value of ${label.charAt(0).toLowerCase()}${label.slice(1)} looks like a card number: card numbers are never sent as metadata or kept in this desk's journal. Remove it.`,
      )
  })
  return problems
}

/** The metadata object to send, or undefined when there is none (an empty object is refused). */
export function metadataObject(
  entries: ReadonlyArray<{ key: string; value: string }>,
): Record<string, string> | undefined {
  if (entries.length === 0) return undefined
  return Object.fromEntries(entries.map(({ key, value }) => [key, value]))
}

/** Names compared the way a person would: case, spacing, punctuation and word order ignored. */
export function normaliseName(name: string): string {
  return words(name).sort().join(' ')
}

export function namesMatch(a: string, b: string): boolean {
  return normaliseName(a) === normaliseName(b)
}
