/**
 * A sheet's bank cell read as a bank (decisions 33 and 55): a name matched against the list of
 * the run's country, and against the other country's, so that a bank of the wrong country is said
 * to be one and a name both countries have is not taken by itself when the sheet's other banks are
 * of the other country; and the words for a bank cell that is no code of the list.
 */
import type { BankMatchRecord, BulkCurrency, BulkFinding, BulkItem } from '../domain/bulk'
import type { BankChoice } from '../banks/bank-list'
import type { BankMatch, BankMatcher } from '../banks/match-bank'
import { COUNTRY_OF_CURRENCY, COUNTRY_WORDS, CURRENCY_OF_COUNTRY } from './banks'

export interface BankCellContext {
  currency: BulkCurrency
  /** The run's country's banks (with what this profile confirmed before). */
  bankNames?: BankMatcher
  /** The other country's banks. */
  otherBanks?: BankMatcher
  /** Some bank of this sheet is of the other country only. */
  sheetNamesOtherBanks?: boolean
}

const finding = (row: number, code: string, message: string): BulkFinding => ({
  row,
  column: 'bank_code',
  code,
  message,
})

const listed = (banks: readonly BankChoice[]): string => {
  const names = banks.map((bank) => `${bank.name} (${bank.code})`)
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`
}

/** A match that names one bank by itself: a code, the bank's name, a known short form. */
type SureMatch = Extract<BankMatch, { kind: 'code' | 'exact' | 'alias' }>
const isSure = (match: BankMatch | undefined): match is SureMatch =>
  match !== undefined && (match.kind === 'code' || match.kind === 'exact' || match.kind === 'alias')

/** "Equity" in a NGN run: the other country's bank it is, said as the finding (decision 55). */
function otherCountryFinding(row: number, text: string, other: SureMatch, currency: BulkCurrency): BulkFinding {
  const country = COUNTRY_OF_CURRENCY[currency]
  const otherCountry = country === 'NG' ? 'KE' : 'NG'
  const what = other.kind === 'code' ? `Bank code ${text} is` : `"${text}" is`
  return {
    ...finding(
      row,
      'bank_other_country',
      `${what} a ${COUNTRY_WORDS[otherCountry]} bank (${other.bank.name}, ${other.bank.code}), and this run pays ${currency} to ${COUNTRY_WORDS[country]} banks: import the sheet as ${CURRENCY_OF_COUNTRY[otherCountry]}, or choose a ${COUNTRY_WORDS[country]} bank.`,
    ),
    candidates: [],
  }
}

/** A bank cell's text read as a name: the match, or the finding that names the candidates. */
export function bankNameOf(
  row: number,
  text: string,
  names: BankMatcher,
  context: BankCellContext,
): { match?: BankMatchRecord; finding?: BulkFinding } {
  const found = names.match(text)
  const other = context.otherBanks?.match(text)
  const country = COUNTRY_OF_CURRENCY[context.currency]
  const quoted = `"${text}"`
  if (!isSure(found) && found.kind !== 'remembered' && isSure(other))
    return { finding: otherCountryFinding(row, text, other, context.currency) }
  switch (found.kind) {
    case 'exact':
    case 'alias':
      // "Stanbic" is a bank of both countries: in a sheet whose other banks are of the other
      // country, it is asked about, never taken for this country's bank (decision 55).
      if (isSure(other) && context.sheetNamesOtherBanks) {
        const otherCountry = country === 'NG' ? 'KE' : 'NG'
        return {
          finding: {
            ...finding(
              row,
              'bank_name_ambiguous',
              `${quoted} names a bank in both countries (${found.bank.name}, ${found.bank.code}; and the ${COUNTRY_WORDS[otherCountry]} ${other.bank.name}), and other banks of this sheet are ${COUNTRY_WORDS[otherCountry]}: choose the bank, or import the sheet as ${CURRENCY_OF_COUNTRY[otherCountry]}.`,
            ),
            candidates: [found.bank],
          },
        }
      }
      return { match: { from: text, code: found.bank.code, name: found.bank.name, how: found.kind } }
    case 'remembered':
      return { match: { from: text, code: found.bank.code, name: found.bank.name, how: found.kind } }
    case 'ambiguous':
      return {
        finding: {
          ...finding(
            row,
            'bank_name_ambiguous',
            `${quoted} could be ${listed(found.candidates)}: choose the bank, or type its code.`,
          ),
          candidates: found.candidates,
        },
      }
    case 'suggestion':
      return {
        finding: {
          ...finding(
            row,
            'bank_name_suggestion',
            `${quoted} is not the name of a ${COUNTRY_WORDS[country]} bank in the service's list; did you mean ${listed(found.candidates)}? Choose the bank, or type its code.`,
          ),
          candidates: found.candidates,
        },
      }
    case 'unknown':
      return {
        finding: {
          ...finding(
            row,
            'bank_name_unknown',
            `${quoted} is neither a ${COUNTRY_WORDS[country]} bank code nor the name of a bank in the service's list: type the bank's code, or its name as the bank list has it.`,
          ),
          candidates: [],
        },
      }
    default:
      // A code (or digits that the code rules judge).
      return {}
  }
}

/** What an item's bank cell says when it is no code of the list: a name, or a code of the other country. */
export function bankFinding(
  item: BulkItem,
  context: BankCellContext,
): { code: string; message: string; candidates?: BankChoice[] } {
  const text = item.bank_code
  const country = COUNTRY_OF_CURRENCY[context.currency]
  const other = context.otherBanks?.match(text)
  if (isSure(other)) {
    const { code, message } = otherCountryFinding(item.row, text, other, context.currency)
    return { code, message }
  }
  if (/^\d+$/.test(text))
    return {
      code: 'bank_code_unknown',
      message: `Bank code "${text}" is not a ${COUNTRY_WORDS[country]} bank code of the service.`,
    }
  // A name (a code would be digits): never called a code (decision 55).
  const match = context.bankNames?.match(text)
  const candidates = match && 'candidates' in match ? match.candidates : []
  if (candidates.length > 0)
    return {
      code: 'bank_name_suggestion',
      message: `"${text}" is not the name of a ${COUNTRY_WORDS[country]} bank in the service's list; did you mean ${listed(candidates)}? Choose the bank, or type its code.`,
      candidates,
    }
  return {
    code: 'bank_name_unknown',
    message: `"${text}" is not the name of a ${COUNTRY_WORDS[country]} bank in the service's list, nor a bank code: choose the bank, or type its code.`,
    candidates: [],
  }
}
