/**
 * Seeded pseudo-random numbers (mulberry32): the same seed and the same request sequence give the
 * same references, trace ids, PANs and CVVs, so tests can assert exact values.
 */
export class SeededRandom {
  private state: number

  constructor(seed: number) {
    this.state = seed >>> 0
  }

  /** The generator's position, so a replayed request draws exactly what it drew the first time. */
  get position(): number {
    return this.state
  }

  set position(value: number) {
    this.state = value >>> 0
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0
    let t = this.state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }

  /** An integer in [0, maxExclusive). */
  int(maxExclusive: number): number {
    return Math.floor(this.next() * maxExclusive)
  }

  digits(length: number): string {
    let out = ''
    for (let i = 0; i < length; i++) out += String(this.int(10))
    return out
  }

  chars(length: number, alphabet: string): string {
    let out = ''
    for (let i = 0; i < length; i++) out += alphabet.charAt(this.int(alphabet.length))
    return out
  }
}

export const UPPER_ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'
export const LOWER_ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789'

/** Luhn check digit, so generated PANs look like real ones to any validator the app uses. */
export function luhnCheckDigit(partial: string): string {
  let sum = 0
  for (let i = 0; i < partial.length; i++) {
    let digit = Number(partial.charAt(partial.length - 1 - i))
    if (i % 2 === 0) {
      digit *= 2
      if (digit > 9) digit -= 9
    }
    sum += digit
  }
  return String((10 - (sum % 10)) % 10)
}
