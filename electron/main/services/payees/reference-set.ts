/**
 * The references a payee book has learnt, compact (decision 116): a 64-bit hash of each reference
 * in an open-addressed table of two Uint32Arrays, 8 bytes a reference instead of a string and a Set
 * entry (a million references: 16 MB at most instead of about 90). The set only keeps a payment
 * from being learnt twice; two references with one 64-bit hash (about one chance in 10^7 for a
 * million) would leave the second payment out of the book, which is derived data, never money.
 * Saved in the book's snapshot as its table's bytes.
 */

const EMPTY = 0
/** Kept at most half full, so a probe finds a free slot or the reference in a few steps. */
const MAX_LOAD = 0.5

/** Two 32-bit FNV-1a-style hashes of the UTF-16 code units with different seeds, never both 0. */
function hashOf(reference: string): [number, number] {
  let high = 0x811c9dc5
  let low = 0x9747b28c
  for (let index = 0; index < reference.length; index++) {
    const unit = reference.charCodeAt(index)
    high = Math.imul(high ^ unit, 0x01000193)
    low = Math.imul(low ^ unit, 0x5bd1e995)
    low ^= low >>> 15
  }
  high >>>= 0
  low >>>= 0
  return high === EMPTY && low === EMPTY ? [1, 0] : [high, low]
}

export class ReferenceSet {
  private high: Uint32Array
  private low: Uint32Array
  private count = 0

  constructor(capacity = 1024) {
    let slots = 1024
    while (slots * MAX_LOAD < capacity) slots *= 2
    this.high = new Uint32Array(slots)
    this.low = new Uint32Array(slots)
  }

  get size(): number {
    return this.count
  }

  has(reference: string): boolean {
    const [high, low] = hashOf(reference)
    return this.find(high, low) >= 0
  }

  /** Adds the reference; false when it was there already. */
  add(reference: string): boolean {
    const [high, low] = hashOf(reference)
    return this.put(high, low)
  }

  /** The table as bytes: its high words, then its low words (the platform's byte order, as a typed array holds them). */
  toBytes(): Uint8Array {
    const slots = this.high.length
    const out = new Uint8Array(slots * 8)
    out.set(new Uint8Array(this.high.buffer, this.high.byteOffset, slots * 4), 0)
    out.set(new Uint8Array(this.low.buffer, this.low.byteOffset, slots * 4), slots * 4)
    return out
  }

  /**
   * A set from `toBytes`' bytes; null when they are not a table (a damaged snapshot). `adopt`: the
   * caller hands the bytes over (a snapshot's table, 16 MB for a million references): the set
   * keeps them instead of a copy when they are a buffer of their own.
   */
  static fromBytes(bytes: Uint8Array, adopt = false): ReferenceSet | null {
    const slots = bytes.length / 8
    if (!Number.isInteger(slots) || slots < 1024 || (slots & (slots - 1)) !== 0) return null
    const set = new ReferenceSet(0)
    const owned = adopt && bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
    const copy = owned ? bytes : new Uint8Array(bytes) // aligned, and owned by the set
    set.high = new Uint32Array(copy.buffer, 0, slots)
    set.low = new Uint32Array(copy.buffer, slots * 4, slots)
    let count = 0
    for (let index = 0; index < slots; index++) if (set.high[index] !== EMPTY || set.low[index] !== EMPTY) count++
    set.count = count
    return set
  }

  private find(high: number, low: number): number {
    const mask = this.high.length - 1
    let slot = (high ^ Math.imul(low, 0x9e3779b1)) & mask
    for (;;) {
      const h = this.high[slot] as number
      const l = this.low[slot] as number
      if (h === EMPTY && l === EMPTY) return -1 - slot
      if (h === high && l === low) return slot
      slot = (slot + 1) & mask
    }
  }

  private put(high: number, low: number): boolean {
    if (this.count + 1 > this.high.length * MAX_LOAD) this.grow()
    const found = this.find(high, low)
    if (found >= 0) return false
    const slot = -1 - found
    this.high[slot] = high
    this.low[slot] = low
    this.count++
    return true
  }

  private grow(): void {
    const { high, low } = this
    this.high = new Uint32Array(high.length * 2)
    this.low = new Uint32Array(low.length * 2)
    this.count = 0
    for (let index = 0; index < high.length; index++) {
      const h = high[index] as number
      const l = low[index] as number
      if (h !== EMPTY || l !== EMPTY) this.put(h, l)
    }
  }
}
