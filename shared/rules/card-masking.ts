/**
 * Card numbers masked where they are kept rather than refused: the first six and last four digits
 * stay, every digit between becomes `*`, separators stay as written ("4111 11** **** 1111"). The
 * card numbers are those shared/rules/sensitive-data.ts finds, however written. What is left can
 * never be read as a card number again (ten digits), yet says which card it was, as a receipt does.
 */
import { cardNumbersIn } from './sensitive-data'

const ANY_DIGIT = /\p{Nd}/u

/** The text with every card number in it masked to its first six and last four digits. */
export function maskCardNumbers(text: string): string {
  const found = cardNumbersIn(text)
  if (found.length === 0) return text
  let result = ''
  let from = 0
  for (const { index, length } of found) {
    result += text.slice(from, index)
    const written = [...text.slice(index, index + length)]
    const total = written.filter((char) => ANY_DIGIT.test(char)).length
    let seen = 0
    for (const char of written) {
      if (!ANY_DIGIT.test(char)) result += char
      else {
        result += seen >= 6 && seen < total - 4 ? '*' : char
        seen += 1
      }
    }
    from = index + length
  }
  return result + text.slice(from)
}

/**
 * A card number masked so (six digits, at least three `*`, four digits, with separators as a card
 * number may have them): a row that held one stays flagged after it is masked.
 */
const MASKED_CARD_NUMBER = /(?<![\p{Nd}*])\p{Nd}(?:[ .\-/_\u00a0]{0,3}[\p{Nd}*]){12,22}(?![\p{Nd}*])/gu

export function holdsMaskedCardNumber(text: string): boolean {
  if (!text.includes('*')) return false
  for (const [match] of text.normalize('NFKC').matchAll(MASKED_CARD_NUMBER)) {
    const kept = match.replace(/[^\p{Nd}*]/gu, '')
    if (/^\p{Nd}{6}\*{3,9}\p{Nd}{4}$/u.test(kept)) return true
  }
  return false
}

/** A copy of a JSON-like value with every card number in its strings masked (keys left alone). */
export function maskCardNumbersIn<T>(value: T): T {
  const walk = (item: unknown): unknown => {
    if (typeof item === 'string') return maskCardNumbers(item)
    if (item === null || typeof item !== 'object') return item
    if (Array.isArray(item)) return item.map(walk)
    const copy: Record<string, unknown> = {}
    for (const [key, inner] of Object.entries(item)) {
      Object.defineProperty(copy, key, { value: walk(inner), enumerable: true, writable: true, configurable: true })
    }
    return copy
  }
  return walk(value) as T
}
