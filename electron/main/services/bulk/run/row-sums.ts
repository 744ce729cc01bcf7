/**
 * A run's figures kept as its rows change (decision 164): the counts of the runs list, what the run
 * pays, the tally of every place with its amount and the paid rows' fees, and the counts of the
 * send readiness. Each row's part is kept (where it was counted, its amount, its fee), so a change
 * takes its old part away and adds its new one: a few operations a change, where a pass over every
 * row took some 23 ms at 10,000 rows on each change, 230 ms at 100,000.
 *
 * Every change of a row goes through `RunAutosave.rowChanged`, which tells these sums; rows added
 * are summed when next read, and a run whose rows were replaced is summed whole again. A run is
 * first summed a slice a turn as it is created or loaded (`prepare`). Each part comes from the same
 * functions the one-pass figures use (placeOf, rowAmountMinor, countBitsOf, isSendable,
 * needsNameAcknowledgement, holdingTripwires), and row-sums.test.ts checks the kept sums equal a
 * pass over the records after random changes through every path of the service.
 */
import { setImmediate as nextTurn } from 'node:timers/promises'
import type { RunCounts, RunRow } from '../../../../../shared/domain/bulk-run'
import { needsNameAcknowledgement } from '../../../../../shared/domain/bulk-run'
import type { ProfileMode } from '../../../../../shared/domain/profiles'
import { holdingTripwires } from '../../../../../shared/bulk/payee-holds'
import type { RunTally } from '../../../../../shared/bulk/run-tally'
import { placeOf, ROW_PLACES, rowAmountMinor, tallyOfSums, type RowPlace } from '../../../../../shared/bulk/run-tally'
import type { SendReadiness } from '../../../../../shared/bulk/send-readiness'
import { readinessOfCounts, ROWS_NAMED } from '../../../../../shared/bulk/send-readiness'
import { toMinorUnits } from '../../../../../shared/money'
import { addCountBits, countBitsOf, emptyCounts } from './run-rows'

// A row's part in the readiness and the totals, as bits.
/** Not excluded and no error: the rows Send would pay once free. */
const PAYABLE = 1 << 0
/** Payable and not held: sent, and in the run's total before it is planned (isSendable). */
const SENDABLE = 1 << 1
const UNCHECKED = 1 << 2
const UNACKNOWLEDGED = 1 << 3
const HELD = 1 << 4
const HELD_ACCOUNT_CHANGED = 1 << 5
const HELD_SHARED_ACCOUNT = 1 << 6
/** Paid, and its fee read (FEE_READ) or not yet (FEE_UNREAD). */
const FEE_READ = 1 << 7
const FEE_UNREAD = 1 << 8

const PLACE_INDEX = new Map<RowPlace, number>(ROW_PLACES.map((place, i) => [place, i]))
const PAID = PLACE_INDEX.get('paid')!

function readinessBitsOf(row: RunRow, place: number): number {
  let bits = 0
  if (place === PAID) bits |= row.fee === undefined ? FEE_UNREAD : FEE_READ
  if (row.excluded || row.errors.length > 0) return bits
  bits |= PAYABLE
  if (row.resolution === 'unchecked') bits |= UNCHECKED
  else if (needsNameAcknowledgement(row)) bits |= UNACKNOWLEDGED
  const holding = row.tripwires ? holdingTripwires(row) : []
  if (holding.length === 0) return bits | SENDABLE
  bits |= HELD
  if (holding.some((tripwire) => tripwire.kind === 'account_changed')) bits |= HELD_ACCOUNT_CHANGED
  if (holding.some((tripwire) => tripwire.kind === 'shared_account')) bits |= HELD_SHARED_ACCOUNT
  return bits
}

/** Rows summed in one turn of main's event loop while a run is first summed (some 5 ms). */
const ROWS_PER_TURN = 5_000

export class RowSums {
  /** The rows summed: rows replaced unseen are summed again. */
  private summed: RunRow[] | null = null
  /** How many of them, from the first: rows beyond are summed when next read. */
  private length = 0
  // Each row's part, by index.
  private place = new Uint8Array(0)
  private counted = new Uint8Array(0)
  private flags = new Uint16Array(0)
  private amount: bigint[] = []
  private fee: bigint[] = []
  // The sums.
  private placeRows: number[] = []
  private placeMinor: bigint[] = []
  private counts: RunCounts = emptyCounts()
  private fees = 0n
  private feeRows = 0
  private unread = 0
  private sendableRows = 0
  private sendableMinor = 0n
  private payable = 0
  private unchecked = 0
  private unacknowledged = 0
  private held = 0
  private heldAccountChanged = 0
  private heldSharedAccount = 0

  constructor(private readonly rowsOf: () => RunRow[]) {}

  /**
   * Sums the run's rows a slice a turn (a run created or loaded: 100,000 rows took main some
   * 70 ms in one go); a read meanwhile sums what is left at once.
   */
  async prepare(): Promise<void> {
    for (;;) {
      const rows = this.rowsOf()
      if (this.summed !== rows) this.reset(rows)
      if (this.length >= rows.length) return
      this.sumUpTo(Math.min(rows.length, this.length + ROWS_PER_TURN))
      await nextTurn()
    }
  }

  /** A row changed (RunAutosave.rowChanged): its old part goes, its new one comes. */
  rowChanged(row: RunRow): void {
    const rows = this.rowsOf()
    if (this.summed !== rows) return
    const i = row.index
    // A row replaced by another at its place: every row is summed again at the next read.
    if (rows[i] !== row) {
      this.summed = null
      return
    }
    // A row not summed yet (being summed, or added) is summed as it is when its turn comes.
    if (i >= this.length) return
    this.apply(i, -1)
    this.take(i, row)
    this.apply(i, 1)
  }

  runCounts(): RunCounts {
    this.ensure()
    return { ...this.counts }
  }

  /** The sendable rows and their sum in minor units (the run's total before it is planned). */
  sendable(): { rows: number; amount: bigint } {
    this.ensure()
    return { rows: this.sendableRows, amount: this.sendableMinor }
  }

  tally(merchantBearsCost: boolean): RunTally {
    this.ensure()
    return tallyOfSums(
      {
        places: (place) => {
          const i = PLACE_INDEX.get(place)!
          return { rows: this.placeRows[i]!, minor: this.placeMinor[i]! }
        },
        rows: this.length,
        fees: this.fees,
        feeRows: this.feeRows,
        unread: this.unread,
        paid: this.placeMinor[PAID]!,
      },
      merchantBearsCost,
    )
  }

  /**
   * Whether the names allow Send. The counts are kept; the first sheet rows each names are found
   * by a look along the kept flags that stops at the tenth of each (never a look at the rows).
   */
  readiness(mode?: ProfileMode): SendReadiness {
    this.ensure()
    const rows = this.summed!
    const named = { unchecked: [] as number[], unacknowledged: [] as number[], held: [] as number[] }
    const want = (count: number, list: number[]): boolean => list.length < Math.min(count, ROWS_NAMED)
    for (let i = 0; i < this.length; i++) {
      const wantUnchecked = want(this.unchecked, named.unchecked)
      const wantUnacknowledged = want(this.unacknowledged, named.unacknowledged)
      const wantHeld = want(this.held, named.held)
      if (!wantUnchecked && !wantUnacknowledged && !wantHeld) break
      const bits = this.flags[i]!
      if (wantUnchecked && bits & UNCHECKED) named.unchecked.push(rows[i]!.item.row)
      if (wantUnacknowledged && bits & UNACKNOWLEDGED) named.unacknowledged.push(rows[i]!.item.row)
      if (wantHeld && bits & HELD) named.held.push(rows[i]!.item.row)
    }
    return readinessOfCounts(
      {
        payable: this.payable,
        held: {
          count: this.held,
          accountChanged: this.heldAccountChanged,
          sharedAccount: this.heldSharedAccount,
          sheetRows: named.held,
        },
        unchecked: { count: this.unchecked, sheetRows: named.unchecked },
        unacknowledged: { count: this.unacknowledged, sheetRows: named.unacknowledged },
      },
      mode,
    )
  }

  /** Every row summed now: the first read, or rows replaced or added since. */
  private ensure(): void {
    const rows = this.rowsOf()
    if (this.summed !== rows) this.reset(rows)
    if (this.length < rows.length) this.sumUpTo(rows.length)
  }

  private reset(rows: RunRow[]): void {
    this.summed = rows
    this.length = 0
    this.placeRows = ROW_PLACES.map(() => 0)
    this.placeMinor = ROW_PLACES.map(() => 0n)
    this.counts = emptyCounts()
    this.fees = this.sendableMinor = 0n
    this.feeRows = this.unread = this.sendableRows = 0
    this.payable = this.unchecked = this.unacknowledged = 0
    this.held = this.heldAccountChanged = this.heldSharedAccount = 0
  }

  /** Sums the rows from the last summed up to `end` (room made as rows are added, doubling). */
  private sumUpTo(end: number): void {
    const rows = this.summed!
    if (end > this.place.length) {
      const capacity = Math.max(end, rows.length, this.place.length * 2)
      const place = new Uint8Array(capacity)
      place.set(this.place)
      const counted = new Uint8Array(capacity)
      counted.set(this.counted)
      const flags = new Uint16Array(capacity)
      flags.set(this.flags)
      this.place = place
      this.counted = counted
      this.flags = flags
    }
    for (let i = this.length; i < end; i++) {
      this.take(i, rows[i]!)
      this.apply(i, 1)
    }
    this.length = end
  }

  /** The row's part as it stands now. */
  private take(i: number, row: RunRow): void {
    const place = PLACE_INDEX.get(placeOf(row))!
    this.place[i] = place
    this.counted[i] = countBitsOf(row)
    const bits = readinessBitsOf(row, place)
    this.flags[i] = bits
    this.amount[i] = rowAmountMinor(row.item.amount)
    this.fee[i] = bits & FEE_READ ? toMinorUnits(row.fee!) : 0n
  }

  /** Adds (1) or takes away (-1) row i's part as kept. */
  private apply(i: number, sign: 1 | -1): void {
    const place = this.place[i]!
    const amount = this.amount[i]!
    const bits = this.flags[i]!
    this.placeRows[place]! += sign
    this.placeMinor[place]! += sign === 1 ? amount : -amount
    addCountBits(this.counts, this.counted[i]!, sign)
    if (bits & FEE_READ) {
      this.fees += sign === 1 ? this.fee[i]! : -this.fee[i]!
      this.feeRows += sign
    }
    if (bits & FEE_UNREAD) this.unread += sign
    if (bits & SENDABLE) {
      this.sendableRows += sign
      this.sendableMinor += sign === 1 ? amount : -amount
    }
    if (bits & PAYABLE) this.payable += sign
    if (bits & UNCHECKED) this.unchecked += sign
    if (bits & UNACKNOWLEDGED) this.unacknowledged += sign
    if (bits & HELD) this.held += sign
    if (bits & HELD_ACCOUNT_CHANGED) this.heldAccountChanged += sign
    if (bits & HELD_SHARED_ACCOUNT) this.heldSharedAccount += sign
  }
}
