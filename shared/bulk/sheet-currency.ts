/**
 * The currency a sheet points to (decision 55), for the Columns step and the check-sheet command:
 * a cell that says so ("Currency: KES", or "Currency" beside "KES", or a Currency column), the
 * country of its banks (names and codes read against both countries' lists: "Equity" and "68" are
 * Kenyan, "GTBank" and "058" Nigerian, "Stanbic" is both and tells nothing), and the currency marks
 * of its amounts and amount header ("₦", "KSh", "Amount (KES)"). A cell that says so wins; then the
 * banks; then the amounts. Whatever points the other way is said too, never hidden.
 */
import type { BulkColumnMapping, BulkCurrency, CurrencyGuess } from '../domain/bulk'
import { bundledBanks, type BulkBankCountry } from '../banks/bank-list'
import { BankMatcher } from '../banks/match-bank'
import { COUNTRY_WORDS, CURRENCY_OF_COUNTRY } from './banks'
import { cellText, isNumberCell, type SheetRow } from './cells'
import { normaliseHeader } from './header'
import { IMPORT_LIMITS } from './limits'

const CURRENCY_WORDS: ReadonlyArray<[RegExp, BulkCurrency]> = [
  [/^(ngn|naira|nigerian naira|n|₦)$/, 'NGN'],
  [/^(kes|ksh|kshs|k sh|k shs|kenya shillings?|kenyan shillings?|shillings?)$/, 'KES'],
]

/** The currency a text names on its own ("KES", "Kenya Shillings", "₦"); null otherwise. */
export function currencyOfText(text: string): BulkCurrency | null {
  const normal = text
    .trim()
    .toLowerCase()
    .replace(/[.()[\]]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
  for (const [pattern, currency] of CURRENCY_WORDS) if (pattern.test(normal)) return currency
  return null
}

/** The currency a label names after "Currency" ("Currency: KES", "Payment currency - NGN"). */
function labelledCurrency(text: string): BulkCurrency | null {
  const match = /\b(?:currency|ccy)\b\s*[:=\-–—]?\s*(.+)$/i.exec(text)
  return match ? currencyOfText(match[1]!) : null
}

const isCurrencyLabel = (text: string): boolean => /^(?:payment )?(?:currency|ccy|curr)$/.test(normaliseHeader(text))

/** Marks of a currency inside an amount or a header: "₦1,250.00", "KSh 5,000", "Net Pay (KES)". */
function markedCurrency(text: string): BulkCurrency | null {
  const ngn = /₦|\bngn\b|\bnaira\b/i.test(text)
  const kes = /\bkes\b|\bk\.?\s?shs?\b|\bshillings?\b/i.test(text)
  return ngn === kes ? null : ngn ? 'NGN' : 'KES'
}

interface Said {
  currency: BulkCurrency
  because: string
}

/** Rows read below the data for a footer that says the currency. */
const FOOTER_ROWS = 10

/**
 * A cell that says the currency: "Currency: KES" alone, "Currency" then "KES", or a Currency
 * column. Looked for in the titles and header, and in the last rows (a footer); never cell by cell
 * through the data (a sheet has up to 100,000 rows), where only a Currency column's values count.
 */
function saidByACell(all: readonly SheetRow[], headerRow: number | null): Said | null {
  const top = all.filter((row) => row.row <= (headerRow ?? IMPORT_LIMITS.headerSearchRows))
  const rows = all.length - top.length > FOOTER_ROWS ? top.concat(all.slice(-FOOTER_ROWS)) : all
  for (const row of rows) {
    const texts = row.cells.map(cellText)
    for (let index = 0; index < texts.length; index++) {
      const text = texts[index]!
      if (text === '') continue
      const labelled = labelledCurrency(text)
      if (labelled) return { currency: labelled, because: `a cell says "${text}" (row ${row.row})` }
      if (!isCurrencyLabel(text)) continue
      if (row.row === headerRow) {
        // A Currency column: every value under it names one currency.
        const values = new Set<BulkCurrency | null>()
        for (const below of all)
          if (below.row > headerRow && cellText(below.cells[index]) !== '')
            values.add(currencyOfText(cellText(below.cells[index])))
        const [only] = values
        if (values.size === 1 && only)
          return { currency: only, because: `its "${text}" column says ${only} on every row` }
        continue
      }
      const next = texts.slice(index + 1).find((value) => value !== '')
      const named = next === undefined ? null : currencyOfText(next)
      if (named) return { currency: named, because: `a cell says "${text} ${next}" (row ${row.row})` }
    }
  }
  return null
}

const matchers = new Map<BulkBankCountry, BankMatcher>()
function matcherOf(country: BulkBankCountry): BankMatcher {
  let matcher = matchers.get(country)
  if (!matcher) matchers.set(country, (matcher = new BankMatcher(bundledBanks(country), country)))
  return matcher
}

/** The country a bank text is a bank of by itself (a code or a name of one country's list only); null when both or neither. */
export function countryOfBankText(text: string): BulkBankCountry | null {
  const found = (['NG', 'KE'] as const).filter((country) => {
    const match = matcherOf(country).match(text)
    return match.kind === 'code' || match.kind === 'exact' || match.kind === 'alias'
  })
  return found.length === 1 ? found[0]! : null
}

/** The rows whose bank is of one country only, per country. */
function bankCountries(rows: readonly SheetRow[], column: number): Record<BulkBankCountry, number> {
  const counts = { NG: 0, KE: 0 }
  const seen = new Map<string, BulkBankCountry | null>()
  for (const row of rows) {
    const cell = row.cells[column]
    // A number cell may have lost a leading zero: 58 is neither GTBank's 058 nor a Kenyan code.
    if (cell === undefined || isNumberCell(cell)) continue
    const text = cellText(cell)
    if (text === '') continue
    let country = seen.get(text)
    if (country === undefined) seen.set(text, (country = countryOfBankText(text)))
    if (country) counts[country]++
  }
  return counts
}

const rowsWord = (count: number, what: string): string =>
  `${count.toLocaleString('en-US')} ${what}${count === 1 ? '' : 's'}`

/**
 * What the sheet says about its currency, read with the proposed header row and mapping. Null
 * when it says nothing (the user chooses, NGN first).
 */
export function guessCurrency(
  rows: readonly SheetRow[],
  headerRow: number | null,
  mapping: BulkColumnMapping | null,
): CurrencyGuess | null {
  const cell = saidByACell(rows, headerRow)
  const data = headerRow === null ? [] : rows.filter((row) => row.row > headerRow)
  const bankColumn = mapping?.indexOf('bank_code') ?? -1
  const banks = bankColumn >= 0 ? bankCountries(data, bankColumn) : { NG: 0, KE: 0 }
  const byBanks: BulkBankCountry | null = banks.NG === banks.KE ? null : banks.NG > banks.KE ? 'NG' : 'KE'

  const amountColumn = mapping?.indexOf('amount') ?? -1
  const header = rows.find((row) => row.row === headerRow)
  const amountHeader = amountColumn >= 0 ? cellText(header?.cells[amountColumn]) : ''
  const marks = { NGN: 0, KES: 0 }
  if (amountColumn >= 0)
    for (const row of data) {
      const amount = row.cells[amountColumn]
      if (isNumberCell(amount)) continue
      const marked = markedCurrency(cellText(amount))
      if (marked) marks[marked]++
    }
  const headed = markedCurrency(amountHeader)

  const evidence: Said[] = []
  if (cell) evidence.push(cell)
  if (byBanks) {
    const total = banks.NG + banks.KE
    const own = banks[byBanks]
    evidence.push({
      currency: CURRENCY_OF_COUNTRY[byBanks],
      because:
        own === total
          ? `${rowsWord(own, 'row')} ${own === 1 ? 'names a' : 'name'} ${COUNTRY_WORDS[byBanks]} ${own === 1 ? 'bank' : 'banks'}`
          : `${own} of the ${rowsWord(total, 'row')} naming a bank of one country name ${COUNTRY_WORDS[byBanks]} banks`,
    })
  }
  if (headed) evidence.push({ currency: headed, because: `the amount column is headed "${amountHeader}"` })
  const byMarks: BulkCurrency | null = marks.NGN === marks.KES ? null : marks.NGN > marks.KES ? 'NGN' : 'KES'
  if (byMarks)
    evidence.push({
      currency: byMarks,
      because: `${rowsWord(marks[byMarks], 'amount')} written with ${byMarks === 'NGN' ? '₦ or NGN' : 'KSh or KES'}`,
    })
  const first = evidence[0]
  if (!first) return null
  const currency = first.currency
  const against: string[] = evidence.filter((said) => said.currency !== currency).map((said) => said.because)
  const other = currency === 'NGN' ? 'KE' : 'NG'
  if (byBanks !== other && banks[other] > 0)
    against.push(
      `${rowsWord(banks[other], 'row')} ${banks[other] === 1 ? 'names a' : 'name'} ${COUNTRY_WORDS[other]} ${banks[other] === 1 ? 'bank' : 'banks'}`,
    )
  return {
    currency,
    because: evidence.filter((said) => said.currency === currency).map((said) => said.because),
    against,
  }
}
