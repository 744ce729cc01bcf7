/**
 * Account numbers as sheets hold them (decision 54). Spaces and dashes inside one ("0123 456 789",
 * "0123-456-789") are cleaned away with a note. One that came from a number cell may have lost
 * leading zeros (0170546876558 kept as 170546876558): it is refused where its length shows a digit
 * was lost (shorter than the bank's accounts, or longer than the 15 digits Excel keeps), and
 * otherwise it needs a person to confirm it. A CSV has no cell types: there a number is what Excel
 * or another program wrote for one, "1.70547E+11" (digits lost for good) or "170546876558.0".
 */
import type { BulkItem } from '../domain/bulk'
import accountLengths from '../banks/account-lengths.json'
import { bundledBanks, type BulkBankCountry } from '../banks/bank-list'
import { ACCOUNT_FORMATS, COUNTRY_WORDS } from './banks'

const LENGTHS: Readonly<Record<BulkBankCountry, Readonly<Record<string, number>>>> = {
  NG: accountLengths.NG,
  KE: accountLengths.KE,
}

/** Excel keeps 15 significant digits of a number: any further digit of a number cell is lost. */
export const NUMBER_CELL_DIGITS = 15

/** The digits an account number has at this bank, where known (account-lengths.json). */
export function accountLength(country: BulkBankCountry, bankCode: string): number | undefined {
  const lengths = LENGTHS[country]
  return lengths[bankCode] ?? lengths['*']
}

/** Spaces (any width) and dashes (any kind) between digits: each group of digits split by at least one. */
const SEPARATED =
  /^\d+(?:(?:[ \u00a0\u2007\u2009\u202f]+|[ \u00a0\u2007\u2009\u202f]*[-\u2010-\u2015\u2212][ \u00a0\u2007\u2009\u202f]*)\d+)+$/
const SEPARATORS = /[ \u00a0\u2007\u2009\u202f\-\u2010-\u2015\u2212]/g

/** An account written with spaces or dashes between its digits, as digits only; null when it is not one. */
export function cleanedAccountNumber(text: string): string | null {
  if (/^\d+$/.test(text) || !SEPARATED.test(text)) return null
  return text.replace(SEPARATORS, '')
}

/** A number in exponent form, as Excel writes a long number it shows so ("1.70547E+11"). */
export function isExponentForm(text: string): boolean {
  return /^\d(?:\.\d+)?e\+?\d+$/i.test(text.trim())
}

/** "170546876558.0" (a number written with its decimals): its digits; null otherwise. */
export function digitsOfDecimalNumber(text: string): string | null {
  const match = /^(\d+)\.0+$/.exec(text.trim())
  return match ? match[1]! : null
}

export interface AccountProblem {
  code: string
  message: string
}

const bankNames = new Map<string, string>()
function bankName(country: BulkBankCountry, code: string): string {
  if (bankNames.size === 0)
    for (const each of ['NG', 'KE'] as const)
      for (const bank of bundledBanks(each)) bankNames.set(`${each}:${bank.code}`, bank.name)
  return bankNames.get(`${country}:${code}`) ?? `bank ${code}`
}

const digitWord = (count: number): string => `${count} ${count === 1 ? 'digit' : 'digits'}`

/**
 * What is wrong with an item's account number, or what a person must confirm about it; null when
 * nothing. The number-cell finding holds while the account is still what the number cell gave.
 */
export function accountNumberProblem(item: BulkItem, country: BulkBankCountry): AccountProblem | null {
  const account = item.account_number
  const format = ACCOUNT_FORMATS[country]
  const adjective = COUNTRY_WORDS[country]
  if (account === '') return { code: 'account_number_missing', message: 'The account number is empty.' }
  if (isExponentForm(account))
    return {
      code: 'account_number_exponent',
      message: `Account number "${account}" is a number written in exponent form, as Excel shows a long number kept in a number cell: its digits are lost. Format the column as text and type the account number again.`,
    }
  const fromNumber = item.account_from_number !== undefined && item.account_from_number === account
  if (fromNumber && /^\d+$/.test(account)) {
    if (account.length > NUMBER_CELL_DIGITS)
      return {
        code: 'leading_zero_lost',
        message: `Account number ${account} came from a number cell, and a number cell keeps only ${NUMBER_CELL_DIGITS} digits: the digits after the ${NUMBER_CELL_DIGITS}th are lost. Format the column as text and type the number again.`,
      }
    const expected = accountLength(country, item.bank_code)
    if (expected !== undefined && account.length < expected) {
      const lost = expected - account.length
      const whose =
        country === 'NG' ? 'Nigerian account numbers (NUBAN)' : `${bankName(country, item.bank_code)} account numbers`
      return {
        code: 'leading_zero_lost',
        message: `Account number ${account} came from a number cell and has ${digitWord(account.length)}; ${whose} have ${expected}: ${lost === 1 ? 'a leading zero was' : `${lost} leading zeros were`} lost. Format the column as text and type the number again.`,
      }
    }
  }
  if (!format.pattern.test(account))
    return {
      code: 'account_number_format',
      message: `Account number "${account}" is not a ${adjective} account number: ${format.description}.`,
    }
  if (fromNumber)
    return {
      code: 'account_number_cell',
      message: `Account number ${account} came from a number cell, which drops leading zeros: check it against where it came from and confirm it, or type it as text.`,
    }
  return null
}
