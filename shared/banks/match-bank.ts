/**
 * Bank names as people write them in payout sheets ("GTBank", "ACCESS BANK PLC", "United Bank for
 * Africa"), matched against the service's bank list of the run's country (decision 33):
 *
 * - exact: the name, slug or code, ignoring case, punctuation and words such as "PLC", "Limited",
 *   "Ltd", "Nigeria", "Kenya", "Bank", "of" (shared/banks/bank-names.json, ignoredWords);
 * - alias: a well-known short form ("GTB", "UBA", "FBN", "Co-op", "KCB"), kept in bank-names.json;
 * - remembered: what this profile confirmed for the same text before;
 * - ambiguous: the words fit more than one bank ("First" is First Bank of Nigeria and the start of
 *   First City Monument Bank);
 * - suggestion: anything looser (a typo, a partial name), never applied by itself;
 * - unknown: nothing comes close.
 *
 * Pure and deterministic: the import worker, the check-sheet command and the screens run the same.
 */
import type { Bank } from '../domain/lookups'
import type { BankChoice, BulkBankCountry } from './bank-list'
import bankNames from './bank-names.json'
import { editDistance, words } from '../text-compare'

export type BankMatch =
  /** The cell held a code of the list. */
  | { kind: 'code'; bank: BankChoice }
  | { kind: 'exact' | 'alias' | 'remembered'; bank: BankChoice }
  | { kind: 'ambiguous' | 'suggestion'; candidates: BankChoice[] }
  | { kind: 'unknown' }
  /** Digits that are no code of the list: the code rules speak (unknown code, lost leading zero). */
  | { kind: 'not_a_name' }

/** The most suggestions a match names. */
const MAX_SUGGESTIONS = 4

const IGNORED = new Set<string>(bankNames.ignoredWords)
const ALIASES: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>> = bankNames.aliases

/** Lower case, marks dropped, every run of other characters a word break. */
export const nameWords = words

/** The key a bank value is grouped and remembered by: its letters and digits ("GT Bank" -> "gtbank"). */
export function bankTextKey(text: string): string {
  return nameWords(text).join('')
}

/** Words that name the bank, without the ignored ones ("First Bank of Nigeria PLC" -> ["first"]). */
function meaningfulWords(text: string): string[] {
  return nameWords(text).filter((word) => !IGNORED.has(word))
}

/** Legal forms and countries dropped, "bank" kept: "GT Bank PLC" -> "gtbank". */
const LEGAL = new Set(['plc', 'limited', 'ltd', 'nigeria', 'nig', 'ng', 'kenya', 'ke', 'the'])
function legalKey(text: string): string {
  return nameWords(text)
    .filter((word) => !LEGAL.has(word))
    .join('')
}

interface IndexedBank {
  choice: BankChoice
  /** Meaningful words, spaced: "guaranty trust". */
  words: string
  /** The same without spaces: "guarantytrust". */
  compact: string
  /** Keys that name this bank exactly (name, slug) and keys of its aliases. */
  exactKeys: string[]
  aliasKeys: string[]
  /** Each short form's meaningful words. */
  aliasWords: string[][]
}

/** How far a typo may go: one letter in a short word, two in a longer one, three in a long one. */
function typoLimit(length: number): number {
  return length <= 5 ? 1 : length <= 10 ? 2 : 3
}

/**
 * The matcher of one country's bank list, built once per import. `remembered` maps a bank text's
 * key (bankTextKey) to the code this profile confirmed for it.
 */
export class BankMatcher {
  private readonly banks: IndexedBank[]
  private readonly byCode = new Map<string, BankChoice>()
  private readonly cache = new Map<string, BankMatch>()

  constructor(
    banks: readonly Pick<Bank, 'code' | 'name' | 'slug'>[],
    country: BulkBankCountry,
    private readonly remembered: ReadonlyMap<string, string> = new Map(),
  ) {
    const aliases = ALIASES[country] ?? {}
    this.banks = banks.map((bank) => {
      const choice = { code: bank.code, name: bank.name }
      this.byCode.set(bank.code, choice)
      const words = meaningfulWords(bank.name)
      return {
        choice,
        words: words.join(' '),
        compact: words.join(''),
        exactKeys: [bankTextKey(bank.name), legalKey(bank.name), bankTextKey(bank.slug)].filter((key) => key !== ''),
        aliasKeys: (aliases[bank.code] ?? []).map(bankTextKey),
        aliasWords: (aliases[bank.code] ?? []).map(meaningfulWords),
      }
    })
  }

  /** The bank of a code of the list, or undefined. */
  bankOf(code: string): BankChoice | undefined {
    return this.byCode.get(code)
  }

  /** Every bank of the list, for a choice by hand. */
  choices(): BankChoice[] {
    return this.banks.map((bank) => bank.choice)
  }

  match(input: string): BankMatch {
    const text = input.trim()
    const cached = this.cache.get(text)
    if (cached) return cached
    const found = this.find(text)
    this.cache.set(text, found)
    return found
  }

  private find(text: string): BankMatch {
    if (/^\d+$/.test(text)) {
      const bank = this.byCode.get(text)
      return bank ? { kind: 'code', bank } : { kind: 'not_a_name' }
    }
    const key = bankTextKey(text)
    if (key === '') return { kind: 'unknown' }
    const rememberedCode = this.remembered.get(key)
    const rememberedBank = rememberedCode === undefined ? undefined : this.byCode.get(rememberedCode)
    if (rememberedBank) return { kind: 'remembered', bank: rememberedBank }

    const legal = legalKey(text)
    const exact = this.banks.filter((bank) => bank.exactKeys.includes(key) || bank.exactKeys.includes(legal))
    if (exact.length === 1) return { kind: 'exact', bank: exact[0]!.choice }
    if (exact.length > 1) return { kind: 'ambiguous', candidates: exact.map((bank) => bank.choice) }
    // The meaningful words: the same as one bank's, or the start of several banks' names.
    const words = meaningfulWords(text)
    const spaced = words.join(' ')
    const compact = words.join('')
    const same = words.length === 0 ? [] : this.banks.filter((bank) => bank.compact === compact)
    const startOf =
      words.length === 0
        ? []
        : this.banks.filter((bank) => bank.compact !== compact && bank.words.startsWith(`${spaced} `))
    if (same.length === 1 && startOf.length === 0) return { kind: 'exact', bank: same[0]!.choice }

    const alias = this.banks.filter((bank) => bank.aliasKeys.includes(key) || bank.aliasKeys.includes(legal))
    if (alias.length === 1) return { kind: 'alias', bank: alias[0]!.choice }
    if (alias.length > 1) return { kind: 'ambiguous', candidates: alias.map((bank) => bank.choice) }

    if (words.length === 0) return { kind: 'unknown' }
    if (same.length + startOf.length > 1)
      return { kind: 'ambiguous', candidates: [...same, ...startOf].map((bank) => bank.choice) }
    if (startOf.length === 1) return { kind: 'suggestion', candidates: [startOf[0]!.choice] }

    // Looser: a typo within a small distance, or words found inside a bank's name.
    const limit = typoLimit(compact.length)
    const scored: Array<{ bank: IndexedBank; score: number }> = []
    for (const bank of this.banks) {
      const keys = [bank.compact, ...bank.aliasKeys, ...bank.exactKeys]
      let score = Math.min(...keys.map((candidate) => editDistance(compact, candidate, limit)))
      if (score > limit && contains(bank.words.split(' '), words)) score = limit
      if (score <= limit) scored.push({ bank, score })
    }
    scored.sort((a, b) => a.score - b.score || a.bank.choice.name.localeCompare(b.bank.choice.name))
    // A bank's whole name inside a longer one ("Opay Digital Services Ltd", "Kuda Bank Lagos"):
    // a suggestion, the banks naming more of the text first.
    const inside = this.banks
      .filter((bank) => !scored.some((entry) => entry.bank === bank) && namedInside(bank, words))
      .sort(
        (a, b) => b.words.split(' ').length - a.words.split(' ').length || a.choice.name.localeCompare(b.choice.name),
      )
    const candidates = [...scored.map((entry) => entry.bank), ...inside]
    if (candidates.length === 0) return { kind: 'unknown' }
    return { kind: 'suggestion', candidates: candidates.slice(0, MAX_SUGGESTIONS).map((bank) => bank.choice) }
  }
}

/** The bank's meaningful words, or one of its short forms' words, all stand in `words`. */
function namedInside(bank: IndexedBank, words: readonly string[]): boolean {
  const present = new Set(words)
  const every = (names: readonly string[]): boolean =>
    names.length > 0 && names.every((name) => name.length >= 3 && present.has(name))
  return every(bank.words === '' ? [] : bank.words.split(' ')) || bank.aliasWords.some(every)
}

/** Every word of `words` (3 letters or more) is, or starts, a word of the bank's name. */
function contains(bankWords: readonly string[], words: readonly string[]): boolean {
  return words.every((word) => word.length >= 3 && bankWords.some((bankWord) => bankWord.startsWith(word)))
}
