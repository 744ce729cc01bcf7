/**
 * The book's aggregates saved beside its ledger (decision 116), so a start reads 200,000 lines of
 * payees and accounts instead of replaying a million payments:
 * `<profile>.<mode>.snapshot`, JSON lines: a header (what part of the ledger it covers: its size
 * and the last bytes before that point), each payee, each account, then the reference set's table
 * in base64 lines of 48 KB. Written to a temporary file, fsynced and renamed over the old one, so a
 * crash leaves the old snapshot or the new one. A snapshot that does not match its ledger (the
 * ledger shorter, or other bytes at the point it covers) is ignored and the ledger replayed whole:
 * the ledger stays the book's record, the snapshot only saves time.
 */
import { createWriteStream } from 'node:fs'
import { open, rename, rm } from 'node:fs/promises'
import { once } from 'node:events'
import type { IdentifiedBy } from '../../../../shared/payees/identity'
import { readLines } from './line-reader'
import { AccountEntry, AccountUse, PayeeBook, PayeeEntry, ResolvedName, type RecentWindow } from './payee-book'
import { ReferenceSet } from './reference-set'

const VERSION = 1
/** The ledger bytes before the covered point that the snapshot keeps, to know its ledger again. */
const MARK_BYTES = 64
const REFERENCE_LINE_BYTES = 48 * 1024

export function snapshotFile(ledgerFile: string): string {
  return ledgerFile.replace(/\.jsonl$/, '.snapshot')
}

interface Header {
  version: number
  /** The ledger's bytes the snapshot holds (through a line break). */
  ledgerBytes: number
  /** The MARK_BYTES before ledgerBytes, base64. */
  mark: string
  payees: number
  accounts: number
  referenceBytes: number
}

/** The MARK_BYTES of the ledger before `through`, base64 ('' when it cannot be read). */
export async function ledgerMark(ledger: string, through: number): Promise<string> {
  if (through === 0) return ''
  let handle
  try {
    handle = await open(ledger, 'r')
  } catch {
    return ''
  }
  try {
    const length = Math.min(MARK_BYTES, through)
    const bytes = Buffer.alloc(length)
    const { bytesRead } = await handle.read(bytes, 0, length, through - length)
    return bytesRead === length ? bytes.toString('base64') : ''
  } finally {
    await handle.close()
  }
}

type Minor = number | string
type PayeeLine = [
  'P',
  key: string,
  by: IdentifiedBy,
  nameKey: string,
  name: string,
  payeeId: string,
  email: string,
  lastMs: number,
  lastOccasion: string,
  lastAccounts: string[],
  uses: Array<[key: string, firstMs: number, lastMs: number, totals: Array<[string, number, string]>]>,
  recent: Array<[currency: string, at: number[], minor: Minor[]]>,
]
type AccountLine = ['A', key: string, firstMs: number, payees: string[], resolved: Array<[string, number]>]

function payeeLine(payee: PayeeEntry): PayeeLine {
  return [
    'P',
    payee.key,
    payee.by,
    payee.nameKey,
    payee.name,
    payee.payeeId ?? '',
    payee.email ?? '',
    payee.lastMs,
    payee.lastOccasion,
    payee.lastAccounts,
    payee.uses.map((use) => [
      use.key,
      use.firstMs,
      use.lastMs,
      use.totals.map((total) => [total.currency, total.count, total.total.toString()]),
    ]),
    payee.recent.map((window) => [
      window.currency,
      window.at,
      window.minor.map((minor) => (typeof minor === 'bigint' ? minor.toString() : minor)),
    ]),
  ]
}

/** Writes the book's snapshot covering the ledger through `ledgerBytes`. */
export async function writeSnapshot(file: string, book: PayeeBook, ledgerBytes: number, mark: string): Promise<void> {
  const parts = book.parts()
  const references = Buffer.from(parts.references.toBytes())
  const payees = [...parts.payees]
  const accounts = [...parts.accounts]
  const header: Header = {
    version: VERSION,
    ledgerBytes,
    mark,
    payees: payees.length,
    accounts: accounts.length,
    referenceBytes: references.length,
  }
  const temporary = `${file}.${process.pid}.tmp`
  const out = createWriteStream(temporary, { mode: 0o600 })
  const write = async (text: string): Promise<void> => {
    if (!out.write(text)) await once(out, 'drain')
  }
  try {
    await write(`${JSON.stringify(header)}\n`)
    let chunk = ''
    const flush = async (force = false): Promise<void> => {
      if (chunk.length < 1 << 20 && !force) return
      await write(chunk)
      chunk = ''
    }
    for (const payee of payees) {
      chunk += `${JSON.stringify(payeeLine(payee))}\n`
      await flush()
    }
    for (const account of accounts) {
      const line: AccountLine = [
        'A',
        account.key,
        account.firstMs,
        account.payees.map((payee) => payee.key),
        account.resolved.map((entry) => [entry.name, entry.atMs]),
      ]
      chunk += `${JSON.stringify(line)}\n`
      await flush()
    }
    await flush(true)
    for (let offset = 0; offset < references.length; offset += REFERENCE_LINE_BYTES)
      await write(`${JSON.stringify(['R', references.toString('base64', offset, offset + REFERENCE_LINE_BYTES)])}\n`)
    out.end()
    await once(out, 'finish')
    const handle = await open(temporary, 'r+')
    try {
      await handle.sync()
    } finally {
      await handle.close()
    }
    await rename(temporary, file)
  } catch (error) {
    out.destroy()
    await rm(temporary, { force: true })
    throw error
  }
}

export interface SnapshotRead {
  book: PayeeBook
  ledgerBytes: number
  mark: string
}

/**
 * The book as its snapshot saved it; null when there is none, or it cannot be read whole (a
 * damaged or older snapshot: the ledger is replayed instead).
 */
export async function readSnapshot(file: string, pause?: () => Promise<void>): Promise<SnapshotRead | null> {
  let header: Header | null = null
  const payees = new Map<string, PayeeEntry>()
  const accounts: AccountEntry[] = []
  const references: Buffer[] = []
  let damaged = false
  // One string per account key, shared by the payee's uses, its last accounts and the account
  // (JSON.parse makes a new one each time: three copies of each key, decision 148); found among
  // the payee's own few uses, not in a map of every key (that cost the load a tenth). Runs and
  // currencies are few: one map of them.
  const strings = new Map<string, string>()
  const once = (text: string): string => {
    const kept = strings.get(text)
    if (kept !== undefined) return kept
    strings.set(text, text)
    return text
  }
  const keyAmong = (key: string, uses: readonly AccountUse[]): string => {
    for (const use of uses) if (use.key === key) return use.key
    return key
  }
  const take = (text: string): void => {
    if (damaged) return
    if (!header) {
      const parsed = JSON.parse(text) as Header
      if (parsed.version !== VERSION) damaged = true
      header = parsed
      return
    }
    const line = JSON.parse(text) as PayeeLine | AccountLine | ['R', string]
    if (line[0] === 'P') {
      const [, key, by, nameKey, name, payeeId, email, lastMs, lastOccasion, lastAccounts, uses, recent] = line
      const payee = new PayeeEntry(key, by, name, nameKey)
      if (payeeId) payee.payeeId = payeeId
      if (email) payee.email = email
      payee.lastMs = lastMs
      payee.lastOccasion = once(lastOccasion)
      const payeeUses = new Array<AccountUse>(uses.length)
      for (let index = 0; index < uses.length; index++) {
        const [useKey, firstMs, useLastMs, totals] = uses[index] as PayeeLine[10][number]
        const use = new AccountUse(useKey, firstMs, useLastMs)
        use.totals = new Array(totals.length)
        for (let at = 0; at < totals.length; at++) {
          const [currency, count, total] = totals[at] as [string, number, string]
          use.totals[at] = { currency: once(currency), count, total: BigInt(total) }
        }
        payeeUses[index] = use
      }
      payee.uses = payeeUses
      for (let index = 0; index < lastAccounts.length; index++)
        lastAccounts[index] = keyAmong(lastAccounts[index] as string, payeeUses)
      payee.lastAccounts = lastAccounts
      const windows = new Array<RecentWindow>(recent.length)
      for (let index = 0; index < recent.length; index++) {
        const [currency, at, minor] = recent[index] as PayeeLine[11][number]
        // Amounts stay numbers (safe integers), in the parsed list itself; only one written as
        // text (beyond 2^53 minor units) is made a bigint, in place.
        const amounts: Array<Minor | bigint> = minor
        for (let place = 0; place < amounts.length; place++) {
          const value = amounts[place]
          if (typeof value === 'string') amounts[place] = BigInt(value)
        }
        windows[index] = { currency: once(currency), at, minor: amounts as Array<number | bigint> }
      }
      payee.recent = windows
      payees.set(key, payee)
    } else if (line[0] === 'A') {
      const [, key, firstMs, payeeKeys, resolved] = line
      // Exactly as long as it needs (push would make room for 17 in each of 100,000 lists).
      const accountPayees = new Array<PayeeEntry>(payeeKeys.length)
      let known = 0
      for (const payeeKey of payeeKeys) {
        const payee = payees.get(payeeKey)
        if (payee !== undefined) accountPayees[known++] = payee
      }
      const first = accountPayees[0]
      const account = new AccountEntry(first ? keyAmong(key, first.uses) : key, firstMs)
      account.payees = known === accountPayees.length ? accountPayees : accountPayees.slice(0, known)
      const names = new Array<ResolvedName>(resolved.length)
      for (let index = 0; index < resolved.length; index++) {
        const [name, atMs] = resolved[index] as [string, number]
        names[index] = new ResolvedName(name, atMs)
      }
      account.resolved = names
      accounts.push(account)
    } else if (line[0] === 'R') references.push(Buffer.from(line[1], 'base64'))
    else damaged = true
  }
  try {
    const read = await readLines(file, take, pause ? { pause } : {})
    if (read.rest !== '') damaged = true
  } catch {
    return null // a line that is not JSON: a damaged snapshot
  }
  const found = header as Header | null
  if (damaged || !found || payees.size !== found.payees || accounts.length !== found.accounts) return null
  strings.clear()
  const table = Buffer.concat(references)
  references.length = 0
  if (table.length !== found.referenceBytes) return null
  const set = ReferenceSet.fromBytes(table, true)
  if (!set) return null
  return {
    book: PayeeBook.fromParts([...payees.values()], accounts, set),
    ledgerBytes: found.ledgerBytes,
    mark: found.mark,
  }
}
