/**
 * The book's snapshot beside its ledger (decision 116): a restart reads the snapshot and only the
 * ledger lines written after it, and answers exactly as a replay of the whole ledger would; a
 * snapshot that does not match its ledger is ignored, never trusted; a payment is still learnt
 * once across the snapshot (the compact reference set).
 */
import { mkdtemp, readFile, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PayeeBooks, type FlaggedRow } from '../../../../../../electron/main/services/payees/payee-books'
import type { PaidPayment } from '../../../../../../electron/main/services/payees/paid-payment'
import { ledgerFile } from '../../../../../../electron/main/services/payees/payee-ledger'
import { snapshotFile } from '../../../../../../electron/main/services/payees/payee-snapshot'
import { ReferenceSet } from '../../../../../../electron/main/services/payees/reference-set'
import { DEFAULT_TRIPWIRE_SETTINGS, type PaymentToCheck } from '../../../../../../shared/payees/tripwires'

const LIVE = { profileId: 'acme-live', mode: 'live' as const }

function month(index: number, count: number): PaidPayment[] {
  return Array.from({ length: count }, (_, payee) => ({
    reference: `M${index}-${payee}`,
    paidAt: new Date(Date.UTC(2026, index, 27, 10)).toISOString(),
    runId: `run-${index}`,
    payeeId: `E${payee}`,
    name: `Person ${payee}`,
    account: { type: 'bank_account' as const, bank: '058', account: String(1000000000 + payee) },
    currency: 'NGN',
    amount: `${150000 + payee}.00`,
    resolvedName: `PERSON ${payee}`,
    resolvedAt: new Date(Date.UTC(2026, index, 26)).toISOString(),
  }))
}

const sheet: PaymentToCheck[] = [
  // changed account, a spike and a drifted name, and a colleague's account
  {
    payeeId: 'E1',
    name: 'Person 1',
    account: { type: 'bank_account', bank: '058', account: '9999999999' },
    currency: 'NGN',
    amount: '150001.00',
  },
  {
    payeeId: 'E2',
    name: 'Person 2',
    account: { type: 'bank_account', bank: '058', account: '1000000002' },
    currency: 'NGN',
    amount: '900000.00',
    resolvedName: 'SOMEONE ELSE',
  },
  {
    payeeId: 'E3',
    name: 'Person 3',
    account: { type: 'bank_account', bank: '058', account: '1000000004' },
    currency: 'NGN',
    amount: '150003.00',
  },
]

/** Every row a check of (a copy of) `rows` flagged, its slices put together. */
async function flaggedBy(books: PayeeBooks, rows: readonly PaymentToCheck[]): Promise<FlaggedRow[]> {
  const flagged: FlaggedRow[] = []
  for await (const slice of books.checkSlices(LIVE, [...rows], DEFAULT_TRIPWIRE_SETTINGS)) flagged.push(...slice)
  return flagged
}

async function booksIn(directory: string, snapshotAfter: number): Promise<{ books: PayeeBooks; damaged: string[] }> {
  const damaged: string[] = []
  return {
    books: new PayeeBooks(directory, (what, message) => damaged.push(`${what}: ${message}`), snapshotAfter),
    damaged,
  }
}

describe('the snapshot beside the ledger', () => {
  it('a restart from the snapshot and the ledger lines after it answers as a replay of the whole ledger does', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'payee-snapshot-'))
    const { books: first } = await booksIn(directory, 50)
    expect(await first.learn(LIVE, month(0, 40))).toBe(40)
    expect(await first.learn(LIVE, month(1, 40))).toBe(40) // 80 lines: the snapshot is written
    const snapshot = await stat(snapshotFile(ledgerFile(directory, LIVE)))
    expect(await first.learn(LIVE, month(2, 10))).toBe(10) // after the snapshot: only in the ledger
    expect((await stat(snapshotFile(ledgerFile(directory, LIVE)))).mtimeMs).toBe(snapshot.mtimeMs)

    const { books: restarted, damaged } = await booksIn(directory, 1_000_000)
    const { books: replayed } = await booksIn(join(directory, 'replay'), 1_000_000)
    for (const payments of [month(0, 40), month(1, 40), month(2, 10)]) await replayed.learn(LIVE, payments)

    const fromSnapshot = await flaggedBy(restarted, sheet)
    expect(fromSnapshot).toEqual(await flaggedBy(replayed, sheet))
    expect(fromSnapshot?.map((row) => [row.index, row.tripwires.map((tripwire) => tripwire.kind)])).toEqual([
      [0, ['account_changed', 'new_account']],
      [1, ['name_drift', 'unusual_amount']],
      [2, ['account_changed', 'shared_account']],
    ])
    expect(await restarted.list(LIVE, { search: '', offset: 0, limit: 100 })).toEqual(
      await replayed.list(LIVE, { search: '', offset: 0, limit: 100 }),
    )
    expect(damaged).toEqual([])
    // a payment learnt before the snapshot is still known: recorded again, it is not counted twice
    expect(await restarted.learn(LIVE, month(0, 40))).toBe(0)
    expect(await restarted.learn(LIVE, month(2, 10))).toBe(0)
    const { payees } = await restarted.list(LIVE, { search: '', offset: 0, limit: 100 })
    expect(payees.find((payee) => payee.name === 'Person 1')?.accounts[0]?.totals).toEqual([
      { currency: 'NGN', count: 3, total: '450003.00' },
    ])
  })

  it('ignores a snapshot that does not match its ledger (the ledger replaced) and reads the ledger whole', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'payee-snapshot-'))
    const { books: first } = await booksIn(directory, 10)
    await first.learn(LIVE, month(0, 40))
    const ledger = ledgerFile(directory, LIVE)
    // Another ledger of the same length: its bytes differ where the snapshot's end is marked.
    const text = await readFile(ledger, 'utf8')
    await writeFile(ledger, text.replace('"150039.00"', '"150093.00"'))
    const { books: restarted, damaged } = await booksIn(directory, 1_000_000)
    const { payees } = await restarted.list(LIVE, { search: '', offset: 0, limit: 100 })
    expect(payees.find((payee) => payee.name === 'Person 39')?.accounts[0]?.totals).toEqual([
      { currency: 'NGN', count: 1, total: '150093.00' },
    ])
    expect(damaged).toEqual([expect.stringContaining('does not match its ledger')])
  })

  it('a damaged snapshot is not trusted: the ledger is read whole', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'payee-snapshot-'))
    const { books: first } = await booksIn(directory, 10)
    await first.learn(LIVE, month(0, 40))
    const file = snapshotFile(ledgerFile(directory, LIVE))
    const text = await readFile(file, 'utf8')
    await writeFile(file, text.slice(0, Math.floor(text.length / 2)))
    const { books: restarted } = await booksIn(directory, 1_000_000)
    expect((await restarted.list(LIVE, { search: '', offset: 0, limit: 100 })).total).toBe(40)
  })
})

describe('the compact reference set', () => {
  it('knows each reference it was given, no other, and keeps them across its bytes', () => {
    const set = new ReferenceSet()
    for (let index = 0; index < 5000; index++) expect(set.add(`REF-${index}`)).toBe(true)
    expect(set.add('REF-17')).toBe(false)
    expect(set.size).toBe(5000)
    const copy = ReferenceSet.fromBytes(set.toBytes())
    expect(copy?.size).toBe(5000)
    expect(copy?.has('REF-4999')).toBe(true)
    expect(copy?.has('REF-5000')).toBe(false)
    expect(ReferenceSet.fromBytes(new Uint8Array(100))).toBeNull()
  })
})
