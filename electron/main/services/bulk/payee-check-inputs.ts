/**
 * What a run's payee check reads, as one digest (decision 174): the book's side (its basis: the
 * book's changes and the tripwire settings, from the payee service) and each payment the check is
 * sent, with the row it stands for, in order. Two checks with the same digest find the same: the
 * tripwires are a function of these alone (shared/payees/tripwires.ts).
 *
 * The digest of a check is made from the very payments it sent, as it sent them (`take`), so a row
 * changed while the check ran, even changed back, never passes for one the check saw.
 */
import { createHash, type Hash } from 'node:crypto'
import { setImmediate as nextTurn } from 'node:timers/promises'
import type { RunRow } from '../../../../shared/domain/bulk-run'
import type { PaymentToCheck } from '../../../../shared/payees/tripwires'

/** Payments made and digested per turn of main's event loop when a run's inputs are read ahead of a check. */
const PER_TURN = 5_000

export class CheckInputs {
  private readonly hash: Hash
  private next = 0
  private broken = false

  constructor(basis: string) {
    this.hash = createHash('sha256').update(basis).update('\n')
  }

  /** The payments of `rows`, which start at `start` of the check's rows. Out of order, the digest is none. */
  take(start: number, rows: readonly RunRow[], payments: readonly PaymentToCheck[]): void {
    if (start !== this.next) this.broken = true
    // One update a slice (the same digest as one a payment: a hash reads its input as one stream),
    // not 5,000 calls into the hash a slice.
    let lines = ''
    for (let k = 0; k < payments.length; k++) lines += `${(rows[k] as RunRow).index} ${JSON.stringify(payments[k])}\n`
    this.hash.update(lines)
    this.next = start + payments.length
  }

  /** The digest of a check that took each of its `length` payments once, in order; null otherwise. */
  digest(length: number): string | null {
    return this.broken || this.next !== length ? null : this.hash.digest('hex')
  }
}

/**
 * The digest the next check of `rows` would make, read a slice a turn (100,000 rows take some
 * 150 ms of main in all); null once `signal` aborts.
 */
export async function inputsDigest(
  basis: string,
  rows: readonly RunRow[],
  paymentOf: (row: RunRow) => PaymentToCheck,
  signal: AbortSignal,
): Promise<string | null> {
  const inputs = new CheckInputs(basis)
  for (let start = 0; start < rows.length; start += PER_TURN) {
    if (start > 0) await nextTurn()
    if (signal.aborted) return null
    const slice = rows.slice(start, start + PER_TURN)
    inputs.take(start, slice, slice.map(paymentOf))
  }
  return inputs.digest(rows.length)
}
