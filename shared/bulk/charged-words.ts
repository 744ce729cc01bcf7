/**
 * What a run has been charged so far, in one sentence (decisions 48, 60): the paid rows' amounts
 * (plus their fees when we pay them), the fees the service charged, that failed rows are not
 * charged, and the rows still being paid. Every count with its noun and grouped, every amount
 * grouped with its currency, from the run's tally only.
 */
import { formatMoney } from '../money'
import { countOf } from '../words/counts'
import type { RunTally } from './run-tally'

export function chargedWords(tally: RunTally, currency: string, merchantBearsCost: boolean): string {
  const money = (amount: string): string => formatMoney(amount, currency)
  const { paid, open } = tally.places
  const what = merchantBearsCost ? 'amounts and fees' : 'amounts; each fee comes out of what its recipient receives'
  const unread =
    tally.fees.unread > 0
      ? ` (the ${tally.fees.unread === 1 ? 'fee of 1 paid row is' : `fees of ${countOf(tally.fees.unread, 'paid row')} are`} not read yet)`
      : ''
  const stillPaying =
    open.rows > 0
      ? `; ${countOf(open.rows, 'row')} (${money(open.amount)}) ${open.rows === 1 ? 'is' : 'are'} still being paid`
      : ''
  return (
    `Charged so far: ${money(tally.charged)} for ${countOf(paid.rows, 'paid row')} (${what}). ` +
    `Fees charged: ${money(tally.fees.total)}${unread}. Failed rows are not charged${stillPaying}.`
  )
}
