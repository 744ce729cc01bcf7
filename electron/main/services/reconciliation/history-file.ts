/**
 * Reconciling an exported history file offline (decision 141): the payouts of a file the desk
 * exported (the offline review's formats, read and bounded in the file reader's worker, decision
 * 100) checked here before anything is matched, and the period's payouts taken from it. A row that
 * cannot be a payout (no reference, an amount or fee that is not money, a date that is not a date)
 * or a reference the file lists twice with different facts stops the reconciliation with an error
 * naming the file, the row and the column: a file is untrusted, and nothing is guessed from it.
 *
 * Offline nothing can be verified by reference: a record of ours the file lacks is not "ours only"
 * (it may be in another file, or the file may have been cut or edited) but unverified, saying why.
 */
import type { HistoryItem, OfflineSource } from '../../../../shared/domain/history'
import { historyDateMs } from '../../../../shared/domain/history'
import { toMinorUnits } from '../../../../shared/money'
import type { OurPayout, ReferenceVerify, ServicePayout } from '../../../../shared/reconciliation/period-match'
import type { ReconciliationPeriod } from '../../../../shared/reconciliation/reconciliation-view'
import { AppFailure } from '../../../../shared/result'
import { servicePayoutOf } from './period-reader'

/** The longest piece of a file's cell quoted back in an error. */
const QUOTED = 40

function quoted(value: string): string {
  const single = value.replace(/[\p{Cc}\s]+/gu, ' ')
  return JSON.stringify(single.length > QUOTED ? `${single.slice(0, QUOTED)}…` : single)
}

function isMoney(value: string): boolean {
  try {
    toMinorUnits(value)
    return true
  } catch {
    return false
  }
}

/** Why an item of the file is not a payout, naming its column; null when it is one. */
function problemOf(item: HistoryItem): string | null {
  if (item.reference.trim() === '') return 'the Reference is empty'
  if (!isMoney(item.amount)) return `the Amount ${quoted(item.amount)} is not an amount`
  if (toMinorUnits(item.amount) < 0n) return `the Amount ${quoted(item.amount)} is below zero`
  if (!isMoney(item.fee)) return `the Fee ${quoted(item.fee)} is not an amount`
  if (Number.isNaN(historyDateMs(item.date_created)))
    return `the Created date ${quoted(item.date_created)} is not a date and time`
  if (item.status.trim() === '') return 'the Status is empty'
  return null
}

/** The row of the file an item came from (its header is row 1). */
const rowOf = (index: number) => index + 2

export interface FilePayouts {
  source: OfflineSource
  /** The period's payouts in the file, each reference once. */
  payouts: ServicePayout[]
  /** Rows of the file in all, and those outside the period or its currency. */
  rows: number
  outside: number
}

export function payoutsOfFile(
  reviewed: { source: OfflineSource; items: readonly HistoryItem[] },
  period: ReconciliationPeriod,
): FilePayouts {
  const { fileName } = reviewed.source
  const refuse = (message: string): never => {
    throw new AppFailure('bad_request', `${fileName}: ${message}; nothing was reconciled.`)
  }
  const byReference = new Map<string, { row: number; payout: ServicePayout }>()
  const payouts: ServicePayout[] = []
  let outside = 0
  reviewed.items.forEach((item, index) => {
    const problem = problemOf(item)
    if (problem) refuse(`row ${rowOf(index)}: ${problem}`)
    const payout = servicePayoutOf(item)
    const known = byReference.get(payout.reference)
    if (known) {
      const same =
        toMinorUnits(known.payout.amount) === toMinorUnits(payout.amount) &&
        known.payout.currency === payout.currency &&
        known.payout.status === payout.status &&
        toMinorUnits(known.payout.fee ?? '0') === toMinorUnits(payout.fee ?? '0')
      if (!same)
        refuse(
          `rows ${known.row} and ${rowOf(index)} both list payout ${quoted(payout.reference)} with different amounts, fees, currencies or statuses`,
        )
      return
    }
    byReference.set(payout.reference, { row: rowOf(index), payout })
    const at = historyDateMs(item.date_created)
    if (payout.currency.toUpperCase() !== period.currency || at < period.from || at > period.to) {
      outside++
      return
    }
    payouts.push(payout)
  })
  return { source: reviewed.source, payouts, rows: reviewed.items.length, outside }
}

/** Our records the file lacks: unverified, saying why (no verify by reference without the network). */
export function offlineVerifies(
  missing: readonly OurPayout[],
  fileName: string,
  at: string,
): Map<string, ReferenceVerify> {
  return new Map(
    missing.map((record) => [
      record.reference,
      {
        found: 'unknown',
        at,
        note: `Not in ${fileName}. Offline it cannot be verified by reference: reconcile the period with the service to verify it.`,
      },
    ]),
  )
}
