/**
 * The name on a payout against the name the bank gives for the account, classed the way
 * Confirmation of Payee classes it (decision 37): match, close match (initials, another order,
 * a spelling a letter or two away, one name more or less: both names are to be shown), or no
 * match. Pure: the name checks of a bulk run, the payout form and the tests all use this.
 */
import { editDistance, words } from '../text-compare'

export type NameCheckResult = 'match' | 'close_match' | 'no_match'

/** Why a close match is not a match. */
export type CloseMatchReason = 'order' | 'initials' | 'spelling' | 'extra_name'

export interface NameCheck {
  result: NameCheckResult
  /** For a close match: what differs. Empty otherwise. */
  reasons: CloseMatchReason[]
}

/** Titles and legal forms that say nothing about whose account it is. */
const NOISE = new Set([
  'mr',
  'mrs',
  'ms',
  'miss',
  'dr',
  'prof',
  'chief',
  'alhaji',
  'alhaja',
  'engr',
  'pastor',
  'rev',
  'sir',
  'hon',
  'ltd',
  'limited',
  'plc',
  'inc',
  'llc',
])

/** The words of a name: lower case, marks dropped (Adéwálé = Adewale), titles and legal forms left out. */
export function nameTokens(name: string): string[] {
  return words(name).filter((word) => !NOISE.has(word))
}

/** How far a misspelt name may be: one letter in a short name, two in a longer one. */
function typoLimit(length: number): number {
  return length <= 6 ? 1 : 2
}

type Pairing = 'same' | 'initial' | 'typo'

/**
 * Pairs every word of `short` with a distinct word of `long`: equal words first, then initials
 * ("A" for "Adaeze"), then the nearest misspelling. Null when some word of `short` has no partner.
 */
function pairWords(
  short: readonly string[],
  long: readonly string[],
): { kinds: Pairing[]; pairs: Array<[number, number]> } | null {
  const taken = new Set<number>()
  const partner = new Array<number>(short.length).fill(-1)
  const kinds = new Array<Pairing>(short.length)
  const pass = (kind: Pairing, fits: (a: string, b: string) => number | null): void => {
    short.forEach((word, i) => {
      if (partner[i] !== -1) return
      let best = -1
      let bestScore = Infinity
      long.forEach((other, j) => {
        if (taken.has(j)) return
        const score = fits(word, other)
        if (score !== null && score < bestScore) {
          best = j
          bestScore = score
        }
      })
      if (best !== -1) {
        partner[i] = best
        kinds[i] = kind
        taken.add(best)
      }
    })
  }
  pass('same', (a, b) => (a === b ? 0 : null))
  pass('initial', (a, b) => ((a.length === 1 || b.length === 1) && a[0] === b[0] ? 0 : null))
  pass('typo', (a, b) => {
    if (a.length < 3 || b.length < 3) return null
    const limit = typoLimit(Math.max(a.length, b.length))
    const distance = editDistance(a, b, limit)
    return distance <= limit ? distance : null
  })
  if (partner.some((j) => j === -1)) return null
  return { kinds, pairs: partner.map((j, i) => [i, j]) }
}

export function checkName(sheetName: string, bankName: string): NameCheck {
  const sheet = nameTokens(sheetName)
  const bank = nameTokens(bankName)
  if (sheet.length === 0 || bank.length === 0) return { result: 'no_match', reasons: [] }
  if (sheet.join(' ') === bank.join(' ')) return { result: 'match', reasons: [] }

  const [short, long] = sheet.length <= bank.length ? [sheet, bank] : [bank, sheet]
  const paired = pairWords(short, long)
  // One name more or less (two when both have a first and a last name) is still close.
  const extraAllowed = short.length >= 2 ? 2 : 1
  if (paired && long.length - short.length <= extraAllowed && paired.kinds.some((kind) => kind !== 'initial')) {
    const reasons: CloseMatchReason[] = []
    const inOrder = paired.pairs.every(
      ([, j], index, all) => index === 0 || j > (all[index - 1] as [number, number])[1],
    )
    if (!inOrder) reasons.push('order')
    if (paired.kinds.includes('initial')) reasons.push('initials')
    if (paired.kinds.includes('typo')) reasons.push('spelling')
    if (long.length > short.length) reasons.push('extra_name')
    return { result: 'close_match', reasons }
  }
  // The same letters spaced differently ("MaryJane" / "Mary Jane"), or a slip across a word break.
  const a = sheet.join('')
  const b = bank.join('')
  const limit = typoLimit(Math.max(a.length, b.length))
  if (Math.min(a.length, b.length) >= 4 && editDistance(a, b, limit) <= limit)
    return { result: 'close_match', reasons: ['spelling'] }
  return { result: 'no_match', reasons: [] }
}
