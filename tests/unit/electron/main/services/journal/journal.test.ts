/** The journal on real files: durability across reopen, torn ends, one writer, Verify, refusals. */
import { mkdtemp, open as openFile, readdir, readFile, stat, writeFile, appendFile, truncate } from 'node:fs/promises'
import type { FileHandle } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  JOURNAL_FILE_NAME,
  JournalInUseError,
  openJournal,
} from '../../../../../../electron/main/services/journal/journal'
import type { Journal, NewIntent } from '../../../../../../electron/main/services/journal/journal'
import { createSecretRegistry } from '../../../../../../electron/main/services/masking/masking'
import { AppFailure } from '../../../../../../shared/result'

const opened: Journal[] = []
afterEach(async () => {
  for (const journal of opened.splice(0)) await journal.close()
})

async function tempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'journal-'))
}

async function open(directory: string, clock?: () => Date): Promise<Journal> {
  const journal = await openJournal(directory, clock)
  opened.push(journal)
  return journal
}

async function close(journal: Journal): Promise<void> {
  opened.splice(opened.indexOf(journal), 1)
  await journal.close()
}

function intent(reference: string, amount = '1500.50', extra: Partial<NewIntent> = {}): NewIntent {
  return {
    reference,
    kind: 'payout',
    profileId: 'sandbox',
    mode: 'sandbox',
    request: {
      reference,
      destination: {
        type: 'bank_account',
        amount,
        currency: 'NGN',
        bank_account: { bank: '044', account: '0123456789' },
      },
    },
    ...extra,
  }
}

/** A clock that moves one second per call, so every record has its own time. */
function steppingClock(start = Date.parse('2026-11-22T08:00:00Z')): () => Date {
  let tick = 0
  return () => new Date(start + 1000 * tick++)
}

const fileOf = (directory: string) => join(directory, JOURNAL_FILE_NAME)

async function lines(directory: string): Promise<string[]> {
  return (await readFile(fileOf(directory), 'utf8')).split('\n').filter(Boolean)
}

describe('journal: what is written survives', () => {
  it('keeps intents and events, with their timelines, across a reopen', async () => {
    const directory = await tempDir()
    const journal = await open(directory, steppingClock())
    await journal.record(intent('pay-1'))
    await journal.append('pay-1', { state: 'sent', note: 'Sent to the service' })
    await journal.append('pay-1', { state: 'processing', note: 'Accepted', data: { fee: '15.01' } })
    await journal.record(intent('pay-2', '20.00'))
    await journal.append('pay-2', { state: 'unknown', note: 'No answer within 30 s' })
    await journal.append('pay-2', {
      state: 'success',
      note: 'Verified',
      verification: 'found',
      data: { trace_id: 'T1' },
    })
    const before = journal.list()
    await close(journal)

    const again = await open(directory)
    expect(again.status).toMatchObject({ writable: true, records: 6, damagedLines: [] })
    expect(again.status.setAside).toBeUndefined()
    expect(again.list()).toEqual(before)
    expect(again.list().map((movement) => movement.reference)).toEqual(['pay-2', 'pay-1'])
    const paid = again.get('pay-2')!
    expect(paid).toMatchObject({ state: 'success', lastVerification: 'found', profileId: 'sandbox' })
    expect(paid.timeline.map((event) => [event.seq, event.state ?? null, event.note])).toEqual([
      [4, 'recorded', 'Recorded in the journal before sending'],
      [5, 'unknown', 'No answer within 30 s'],
      [6, 'success', 'Verified'],
    ])
    expect(paid.timeline[2]!.data).toEqual({ trace_id: 'T1' })
    expect(again.get('pay-1')!.request).toMatchObject({ destination: { amount: '1500.50' } })
    expect(again.list({ states: ['processing'] }).map((movement) => movement.reference)).toEqual(['pay-1'])
    // New records chain on from where the file ended.
    await again.append('pay-1', { state: 'success', note: 'Paid' })
    expect(again.get('pay-1')!.timeline.at(-1)!.seq).toBe(7)
    expect(await again.verify()).toEqual({ ok: true, records: 7 })
  })

  it('refuses a reference used before, even after a reopen', async () => {
    const directory = await tempDir()
    const journal = await open(directory)
    await journal.record(intent('pay-1'))
    await expect(journal.record(intent('pay-1'))).rejects.toMatchObject({ code: 'conflict' })
    await close(journal)
    const again = await open(directory)
    await expect(again.record(intent('pay-1'))).rejects.toThrow(/already in the journal/)
    expect(await lines(directory)).toHaveLength(1)
  })

  it('files are private to the user', async () => {
    const directory = await tempDir()
    const journal = await open(directory)
    await journal.record(intent('pay-1'))
    expect((await stat(fileOf(directory))).mode & 0o077).toBe(0)
  })
})

describe('journal: a torn last record', () => {
  async function journalWithTwo(): Promise<string> {
    const directory = await tempDir()
    const journal = await open(directory)
    await journal.record(intent('pay-1'))
    await journal.append('pay-1', { state: 'sent', note: 'Sent' })
    await close(journal)
    return directory
  }

  it('is set aside into its own file, reported, and everything before it kept', async () => {
    const directory = await journalWithTwo()
    const intact = await readFile(fileOf(directory))
    const torn = '{"seq":3,"at":"2026-11-22T08:00:00.000Z","type":"event","reference":"pay-1","note":"Acc'
    await appendFile(fileOf(directory), torn)

    const journal = await open(directory)
    const aside = journal.status.setAside!
    expect(aside).toMatchObject({ bytes: Buffer.byteLength(torn), reason: expect.stringMatching(/cut off mid-write/) })
    expect(aside.file.startsWith(directory)).toBe(true)
    expect(await readFile(aside.file, 'utf8')).toBe(torn)
    expect(await readFile(fileOf(directory))).toEqual(intact)
    expect(journal.status.records).toBe(2)
    expect(journal.get('pay-1')!.state).toBe('sent')

    // The journal keeps working: new records chain on to the last intact one.
    await journal.append('pay-1', { state: 'processing', note: 'Accepted' })
    await journal.record(intent('pay-2'))
    expect(journal.get('pay-1')!.timeline.at(-1)!.seq).toBe(3)
    expect(await journal.verify()).toEqual({ ok: true, records: 4 })
    await close(journal)
    const again = await open(directory)
    expect(again.status.setAside).toBeUndefined()
    expect(again.status.records).toBe(4)
  })

  it('garbage ending in a newline is set aside too', async () => {
    const directory = await journalWithTwo()
    await appendFile(fileOf(directory), '\u0000\u0000garbage{{\n')
    const journal = await open(directory)
    expect(journal.status.setAside).toMatchObject({ bytes: 12, reason: expect.stringMatching(/could not be read/) })
    expect(await readFile(journal.status.setAside!.file, 'utf8')).toBe('\u0000\u0000garbage{{\n')
    expect(await journal.verify()).toEqual({ ok: true, records: 2 })
  })

  it('a write cut inside a multi-byte character does not cut into the record before it', async () => {
    const directory = await tempDir()
    const journal = await open(directory)
    await journal.record(intent('pay-1'))
    await journal.append('pay-1', { state: 'sent', note: 'Envoyé à Zoë' })
    await close(journal)
    const full = await readFile(fileOf(directory))
    const intactBytes = full.length
    // A third record whose text ends in the middle of "€" (3 bytes: e2 82 ac): keep 1 of them.
    const torn = Buffer.concat([Buffer.from('{"seq":3,"note":"Paid 5'), Buffer.from([0xe2])])
    await appendFile(fileOf(directory), torn)

    const reopened = await open(directory)
    expect(reopened.status.setAside!.bytes).toBe(torn.length)
    expect((await readFile(fileOf(directory))).length).toBe(intactBytes)
    expect(reopened.get('pay-1')!.timeline.at(-1)!.note).toBe('Envoyé à Zoë')
    expect(await reopened.verify()).toEqual({ ok: true, records: 2 })
  })

  it('a batch cut by a crash keeps its complete records, in order, and sets aside the rest', async () => {
    const directory = await tempDir()
    const journal = await open(directory)
    await journal.appendMany([{ intent: intent('bulk-1') }, { intent: intent('bulk-2') }, { intent: intent('bulk-3') }])
    await close(journal)
    const text = await readFile(fileOf(directory), 'utf8')
    // The crash hit in the middle of the third line.
    const cut = text.lastIndexOf('\n', text.length - 2) + 20
    await truncate(fileOf(directory), Buffer.byteLength(text.slice(0, cut)))

    const again = await open(directory)
    expect(again.list().map((movement) => movement.reference)).toEqual(['bulk-2', 'bulk-1'])
    expect(again.status.setAside).toBeDefined()
    expect(await again.verify()).toEqual({ ok: true, records: 2 })
  })
})

describe('journal: one writer', () => {
  it('a second open in the same process is refused while the first holds it', async () => {
    const directory = await tempDir()
    const first = await open(directory)
    await expect(openJournal(directory)).rejects.toBeInstanceOf(JournalInUseError)
    await expect(openJournal(directory)).rejects.toThrow(/in use by another copy of Payout Desk/)
    // The first is unaffected, and once it closes the journal can be opened again.
    await first.record(intent('pay-1'))
    await close(first)
    const second = await open(directory)
    expect(second.has('pay-1')).toBe(true)
    expect((await readdir(directory)).sort()).toEqual(['journal.jsonl', 'journal.lock'])
  })
})

describe('journal: Verify', () => {
  async function threePayouts(): Promise<string> {
    const directory = await tempDir()
    const journal = await open(directory, steppingClock())
    await journal.record(intent('pay-1', '100.00'))
    await journal.record(intent('pay-2', '200.00'))
    await journal.append('pay-2', { state: 'sent', note: 'Sent' })
    await journal.record(intent('pay-3', '300.00'))
    await close(journal)
    return directory
  }

  it('says OK for an intact journal, and for an empty one', async () => {
    expect(await (await open(await tempDir())).verify()).toEqual({ ok: true, records: 0 })
    expect(await (await open(await threePayouts())).verify()).toEqual({ ok: true, records: 4 })
  })

  it('names the first record whose amount was changed in the file, by number and time', async () => {
    const directory = await threePayouts()
    const text = await readFile(fileOf(directory), 'utf8')
    expect(text).toContain('"amount":"200.00"')
    await writeFile(fileOf(directory), text.replace('"amount":"200.00"', '"amount":"900.00"'))

    const journal = await open(directory)
    const report = await journal.verify()
    expect(report).toMatchObject({
      ok: false,
      records: 1,
      firstBroken: { seq: 2, line: 2, at: '2026-11-22T08:00:01.000Z', reason: expect.stringMatching(/changed/) },
    })
  })

  it('names the record after one that was removed', async () => {
    const directory = await threePayouts()
    const all = await lines(directory)
    await writeFile(fileOf(directory), `${[all[0], all[2], all[3]].join('\n')}\n`)
    const report = await (await open(directory)).verify()
    expect(report).toMatchObject({
      ok: false,
      firstBroken: { seq: 3, line: 2, at: '2026-11-22T08:00:02.000Z', reason: expect.stringMatching(/removed/) },
    })
  })

  it('sees records cut from the end of the journal this copy is writing', async () => {
    const directory = await tempDir()
    const journal = await open(directory, steppingClock())
    await journal.record(intent('pay-1'))
    await journal.record(intent('pay-2'))
    const all = await lines(directory)
    await writeFile(fileOf(directory), `${all[0]}\n`)
    expect(await journal.verify()).toMatchObject({
      ok: false,
      records: 1,
      firstBroken: { seq: 2, at: '2026-11-22T08:00:01.000Z', reason: expect.stringMatching(/removed from its end/) },
    })
  })

  it('keeps intact records intact whatever their keys (integer-like metadata keys)', async () => {
    const directory = await tempDir()
    const journal = await open(directory)
    await journal.record({
      ...intent('pay-1'),
      request: { reference: 'pay-1', metadata: { b: '1', '123': 'x', a: '2' } },
    })
    await journal.append('pay-1', { state: 'sent', note: 'Sent', data: { '7': 'seven', z: 'zed' } })
    expect(await journal.verify()).toEqual({ ok: true, records: 2 })
  })
})

describe('journal: refusals', () => {
  it.each([
    ['pan', { card: { pan: '5188513618552975' } }],
    ['cvv', { card: { cvv: '123' } }],
    ['pin', { authorization: undefined, card: { pin: '1234' } }],
    ['cardNumber', { cardNumber: '5188513618552975' }],
    ['secret_key', { headers: [{ secret_key: 'sk_live_x' }] }],
  ])('refuses a record carrying %s and writes nothing', async (field, request) => {
    const directory = await tempDir()
    const journal = await open(directory)
    await journal.record(intent('pay-0'))
    const size = (await stat(fileOf(directory))).size
    await expect(journal.record({ ...intent('pay-1'), request })).rejects.toThrow(
      new RegExp(`refused .*${field}.*never journaled`),
    )
    await expect(journal.append('pay-0', { note: 'answer', data: request })).rejects.toThrow(/never journaled/)
    expect((await stat(fileOf(directory))).size).toBe(size)
    expect(journal.has('pay-1')).toBe(false)
    expect(journal.get('pay-0')!.timeline).toHaveLength(1)
  })

  it('refuses a card number typed as a value, naming the field, as a bad request: nothing is written', async () => {
    const directory = await tempDir()
    const journal = await open(directory)
    await journal.record(intent('pay-0'))
    const size = (await stat(fileOf(directory))).size
    for (const value of ['4084 1278 8317 2787', '4084127883172787', 'card 5060-9905-8000-0217-499']) {
      const refused = await journal
        .record({ ...intent('pay-1'), request: { reference: 'pay-1', metadata: { note: value } } })
        .catch((error: unknown) => error)
      expect(refused).toBeInstanceOf(AppFailure)
      expect(refused).toMatchObject({
        code: 'bad_request',
        message: expect.stringMatching(/refused request\.metadata\.note: it looks like a card number/),
        details: { issues: [{ path: 'request.metadata.note', message: expect.stringMatching(/card number/) }] },
      })
    }
    await expect(
      journal.append('pay-0', { note: 'answer', data: { items: [{ message: 'card 4111111111111111' }] } }),
    ).rejects.toMatchObject({ code: 'bad_request', message: expect.stringMatching(/data\.items\[0\]\.message/) })
    expect((await stat(fileOf(directory))).size).toBe(size)
    expect(journal.has('pay-1')).toBe(false)
  })

  it('refuses a value holding a registered key or held card data, and forgets it once released', async () => {
    const registry = createSecretRegistry()
    registry.add('sk_test_0123456789abcdef')
    const release = registry.hold(['5399838383838380'])
    const journal = await openJournal(await tempDir(), undefined, { secrets: registry })
    opened.push(journal)
    await expect(
      journal.record({ ...intent('pay-1'), request: { reference: 'pay-1', note: 'key sk_test_0123456789abcdef' } }),
    ).rejects.toMatchObject({ code: 'bad_request', message: expect.stringMatching(/request\.note: it holds a key/) })
    // Not Luhn-valid (a mistyped card number), so only its registration catches it.
    await expect(
      journal.record({ ...intent('pay-1'), request: { reference: 'pay-1', note: '5399838383838380' } }),
    ).rejects.toMatchObject({ code: 'bad_request' })
    release()
    await journal.record({ ...intent('pay-1'), request: { reference: 'pay-1', note: '5399838383838380' } })
    expect(journal.has('pay-1')).toBe(true)
  })

  it('journals account and phone numbers that happen to pass Luhn, and masks card data in notes', async () => {
    // "planted": the account number looks like a card number on purpose; the final secret scan skips it.
    const directory = await mkdtemp(join(tmpdir(), 'journal-planted-'))
    const journal = await open(directory)
    // A 16-digit account number starting with 4 that passes Luhn: an account, not a card.
    const account = '4111111111111111'
    await journal.record({
      ...intent('pay-1'),
      request: { destination: { bank_account: { bank: '68', account }, mobile_money: { mobile_number: account } } },
    })
    await journal.append('pay-1', { note: 'The service said: card 4084127883172787 cvv=123 is not a bank account' })
    const text = await readFile(fileOf(directory), 'utf8')
    expect(text).toContain(`"account":"${account}"`)
    expect(text).not.toContain('4084127883172787')
    expect(text).not.toContain('cvv=123')
    expect(journal.get('pay-1')!.timeline.at(-1)!.note).toBe(
      'The service said: card [redacted] cvv=[redacted] is not a bank account',
    )
    expect(await journal.verify()).toEqual({ ok: true, records: 2 })
  })

  it('a final state cannot change, though notes can still be added', async () => {
    const journal = await open(await tempDir())
    await journal.record(intent('pay-1'))
    await journal.append('pay-1', { state: 'success', note: 'Paid' })
    const refused = await journal.append('pay-1', { state: 'failed', note: 'late failure' }).catch((error) => error)
    expect(refused).toBeInstanceOf(AppFailure)
    expect(refused).toMatchObject({ code: 'conflict', message: expect.stringMatching(/success is final/) })
    await expect(journal.append('pay-1', { state: 'processing', note: 'x' })).rejects.toThrow(/final/)
    await journal.append('pay-1', { note: 'Receipt exported' })
    expect(journal.get('pay-1')!.state).toBe('success')
    expect(await journal.verify()).toEqual({ ok: true, records: 3 })
  })

  it('an event for a reference it does not know is refused', async () => {
    const journal = await open(await tempDir())
    await expect(journal.append('nope', { note: 'x' })).rejects.toMatchObject({ code: 'not_found' })
  })

  it('appendMany is all or nothing when an entry is refused: no record, no changed view', async () => {
    const directory = await tempDir()
    const journal = await open(directory)
    await journal.record(intent('pay-1'))
    const before = journal.get('pay-1')
    await expect(
      journal.appendMany([
        { reference: 'pay-1', event: { state: 'sent', note: 'Sent' } },
        { intent: intent('pay-2') },
        { reference: 'pay-2', event: { state: 'sent', note: 'Sent' } },
        { intent: intent('pay-1') },
      ]),
    ).rejects.toMatchObject({ code: 'conflict' })
    expect(journal.get('pay-1')).toEqual(before)
    expect(journal.has('pay-2')).toBe(false)
    expect(journal.status.records).toBe(1)
    expect(await lines(directory)).toHaveLength(1)
    // And the chain continues as if the batch never was.
    await journal.appendMany([
      { intent: intent('pay-2') },
      { reference: 'pay-2', event: { state: 'sent', note: 'Sent' } },
    ])
    expect(journal.get('pay-2')!.state).toBe('sent')
    expect(await journal.verify()).toEqual({ ok: true, records: 3 })
  })

  it('a closed journal writes nothing more', async () => {
    const journal = await open(await tempDir())
    await close(journal)
    await expect(journal.record(intent('pay-1'))).rejects.toThrow(/closed/)
  })
})

describe('journal: group commit', () => {
  /** The prototype of the handles fs/promises opens, to watch or fail their writes and fsyncs. */
  async function fileHandlePrototype(directory: string) {
    const handle = await openFile(join(directory, 'probe'), 'w')
    const prototype = Object.getPrototypeOf(handle) as { sync(): Promise<void>; writeFile(data: string): Promise<void> }
    await handle.close()
    return prototype
  }
  afterEach(() => {
    vi.restoreAllMocks()
  })

  it('calls made while a write is under way share one fsync, and are written in the order they were made', async () => {
    const directory = await tempDir()
    const journal = await open(directory)
    const syncs = vi.spyOn(await fileHandlePrototype(directory), 'sync')
    await journal.record(intent('first'))
    syncs.mockClear()
    await Promise.all(Array.from({ length: 30 }, (_, i) => journal.record(intent(`pay-${i}`))))
    expect(syncs.mock.calls.length).toBeLessThan(30)
    expect(syncs.mock.calls.length).toBeGreaterThanOrEqual(1)
    // In the order the calls were made, and chained.
    const references = (await lines(directory)).map((line) => (JSON.parse(line) as { reference: string }).reference)
    expect(references).toEqual(['first', ...Array.from({ length: 30 }, (_, i) => `pay-${i}`)])
    expect(await journal.verify()).toEqual({ ok: true, records: 31 })
  })

  it('lets other work run while one flush builds many calls (a run journaling ahead), and answers none before their fsync', async () => {
    const directory = await tempDir()
    const journal = await open(directory)
    await journal.record(intent('first'))
    const prototype = await fileHandlePrototype(directory)
    const writes = vi.spyOn(prototype, 'writeFile')
    const syncs = vi.spyOn(prototype, 'sync')
    writes.mockClear()
    syncs.mockClear()
    // 40 calls of 8 batch intents of 50 items each, made at once: one flush meets them all.
    const items = Array.from({ length: 50 }, (_, i) => ({
      reference: `item-${i}`,
      amount: '1000.50',
      customer: { name: `Customer ${i}`, email: `customer${i}@example.com` },
    }))
    const answered: number[] = []
    const calls = Array.from({ length: 40 }, (_, c) =>
      journal
        .appendMany(
          Array.from({ length: 8 }, (_, b) => ({
            intent: intent(`batch-${c}-${b}`, '1500.50', {
              kind: 'bulk_batch',
              request: { reference: `batch-${c}-${b}`, items },
            } as Partial<NewIntent>),
          })),
        )
        .then(() => answered.push(c)),
    )
    // Other work (a call of the screen) asked for now runs while the flush is still building:
    // nothing of it is written yet, and no call is answered.
    const seen = await new Promise<{ writes: number; answered: number }>((resolve) =>
      setImmediate(() => resolve({ writes: writes.mock.calls.length, answered: answered.length })),
    )
    expect(seen).toEqual({ writes: 0, answered: 0 })
    await Promise.all(calls)
    // Still one write and one fsync for all of them (group commit), in the order they were made.
    expect(writes.mock.calls.length).toBe(1)
    expect(syncs.mock.calls.length).toBe(1)
    const references = (await lines(directory)).map((line) => (JSON.parse(line) as { reference: string }).reference)
    expect(references).toHaveLength(1 + 40 * 8)
    expect(references.slice(1, 4)).toEqual(['batch-0-0', 'batch-0-1', 'batch-0-2'])
    expect(references.at(-1)).toBe('batch-39-7')
    expect(await journal.verify()).toEqual({ ok: true, records: 321 })
  })

  it('answers no call before an fsync that covers its record has returned (the order of writes and fsyncs, not the page cache)', async () => {
    const directory = await tempDir()
    /** Bytes written through the journal's handle, and bytes an fsync had covered when it returned. */
    let written = 0
    let durable = 0
    const order: string[] = []
    const watched = (handle: FileHandle): FileHandle =>
      new Proxy(handle, {
        get(target, property) {
          if (property === 'writeFile') {
            return async (data: string) => {
              await target.writeFile(data)
              written += Buffer.byteLength(data)
              order.push(`write to ${written}`)
            }
          }
          if (property === 'sync') {
            return async () => {
              const covers = written
              await target.sync()
              durable = covers
              order.push(`fsync to ${covers}`)
            }
          }
          const value = Reflect.get(target, property, target) as unknown
          return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value
        },
      })
    const journal = await openJournal(directory, undefined, { wrapHandle: watched })
    opened.push(journal)
    /** For each reference, how many bytes were durable when its call answered. */
    const durableWhenAnswered = new Map<string, number>()
    const answered = (reference: string) => () => {
      durableWhenAnswered.set(reference, durable)
      order.push(`answer ${reference}`)
    }
    await journal.record(intent('first')).then(answered('first'))
    await Promise.all([
      ...Array.from({ length: 20 }, (_, i) => journal.record(intent(`pay-${i}`)).then(answered(`pay-${i}`))),
      journal.append('first', { state: 'sent', note: 'Sent' }).then(answered('first:sent')),
      journal
        .appendMany([{ intent: intent('bulk-a') }, { intent: intent('bulk-b') }])
        .then(answered('bulk-a'))
        .then(answered('bulk-b')),
    ])
    // Where each record ends in the file: its call may answer only once an fsync covered that byte.
    const text = await readFile(fileOf(directory), 'utf8')
    let end = 0
    const endOf = new Map<string, number>()
    for (const line of text.split('\n').filter(Boolean)) {
      end += Buffer.byteLength(line) + 1
      const record = JSON.parse(line) as { reference: string; type: string; state?: string }
      endOf.set(record.type === 'event' ? `${record.reference}:${record.state}` : record.reference, end)
    }
    expect(durableWhenAnswered.size).toBe(24)
    for (const [reference, durableThen] of durableWhenAnswered) {
      expect(
        durableThen,
        `${reference} answered with ${durableThen} bytes fsynced; it ends at ${endOf.get(reference)}`,
      ).toBeGreaterThanOrEqual(endOf.get(reference) ?? Infinity)
    }
    // Group commit: fewer fsyncs than calls, and every write followed by its fsync before any answer.
    const fsyncs = order.filter((step) => step.startsWith('fsync'))
    expect(fsyncs.length).toBeLessThan(24)
    expect(order[0]).toBe(`write to ${endOf.get('first')}`)
    expect(order[1]).toBe(`fsync to ${endOf.get('first')}`)
    expect(order[2]).toBe('answer first')
  })

  it('a call refused inside a group fails alone; the others are written', async () => {
    const directory = await tempDir()
    const journal = await open(directory)
    await journal.record(intent('pay-0'))
    const results = await Promise.allSettled([
      journal.append('pay-0', { state: 'sent', note: 'Sent' }),
      journal.record(intent('pay-1')),
      journal.appendMany([{ intent: intent('pay-2') }, { intent: intent('pay-1') }]),
      journal.record(intent('pay-3')),
    ])
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled'])
    expect(journal.has('pay-2')).toBe(false)
    expect(journal.get('pay-0')!.state).toBe('sent')
    expect(journal.status.records).toBe(4)
    expect(await journal.verify()).toEqual({ ok: true, records: 4 })
  })

  it('a failed write fails every call of its group and puts the views and the file back', async () => {
    const directory = await tempDir()
    const journal = await open(directory)
    await journal.record(intent('pay-0'))
    const before = journal.get('pay-0')
    const prototype = await fileHandlePrototype(directory)
    const original = prototype.writeFile
    vi.spyOn(prototype, 'writeFile').mockImplementationOnce(async function (this: unknown, data: string) {
      // Half of it reaches the file, then the disk gives up.
      await original.call(this, data.slice(0, Math.floor(data.length / 2)))
      throw new Error('ENOSPC: no space left on device')
    })
    const results = await Promise.allSettled([
      journal.append('pay-0', { state: 'sent', note: 'Sent' }),
      journal.record(intent('pay-1')),
      journal.record(intent('pay-2')),
    ])
    expect(results.every((r) => r.status === 'rejected')).toBe(true)
    expect(journal.get('pay-0')).toEqual(before)
    expect(journal.has('pay-1')).toBe(false)
    expect(journal.status.records).toBe(1)
    expect(await lines(directory)).toHaveLength(1)
    // The journal carries on from where it was.
    await journal.record(intent('pay-1'))
    expect(await journal.verify()).toEqual({ ok: true, records: 2 })
  })
})
