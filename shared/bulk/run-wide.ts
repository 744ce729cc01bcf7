/**
 * The run-wide e-mail and narration (decision 53): what is wrong with one, in the words the
 * Columns step shows under its field and main and check-sheet refuse it with. Rows take these
 * values when they have no cell of their own, so a wrong one would be wrong on every row.
 */
import type { RunWideField, RunWideValues } from '../domain/bulk'
import { emailProblem } from '../rules/common'
import { NARRATION_MAX_LENGTH } from '../rules/payouts'
import { looksLikeCardNumber } from '../rules/sensitive-data'

/** Direction overrides and isolates (as in a sheet's names and narrations: they change how text reads). */
const DIRECTION_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/

/** What is wrong with one run-wide value, or null (an empty value is no value: nothing wrong). */
export function runWideValueProblem(field: RunWideField, value: string): string | null {
  const text = value.trim()
  if (text === '') return null
  if (field === 'customer_email')
    return emailProblem(text)
      ? `The e-mail for the whole run, "${text.slice(0, 80)}", is not a valid e-mail address.`
      : null
  if (text.length > NARRATION_MAX_LENGTH)
    return `The narration for the whole run has ${text.length} characters; at most ${NARRATION_MAX_LENGTH} are sent.`
  if (looksLikeCardNumber(text))
    return 'The narration for the whole run looks like a card number: card numbers are never sent in a payout.'
  if (DIRECTION_CONTROLS.test(text))
    return 'The narration for the whole run holds an invisible text-direction character: type it again.'
  return null
}

/** The first problem of the run-wide values, or null. */
export function runWideProblem(values: RunWideValues): string | null {
  return (
    runWideValueProblem('customer_email', values.customer_email ?? '') ??
    runWideValueProblem('narration', values.narration ?? '')
  )
}
