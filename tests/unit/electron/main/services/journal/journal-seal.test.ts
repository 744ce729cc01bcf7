/**
 * The journal proves itself after the fact (decision 107): an offline edit that recomputes every
 * hash of the chain fails Verify, naming the record, because each record carries a seal (an HMAC
 * under a key in the OS keychain) the editor cannot make. A journal from before the seal is sealed
 * from its next record; without a keychain the journal still works and Verify says what it proves.
 */
import { createHash } from 'node:crypto'
import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { JOURNAL_FILE_NAME, openJournal } from '../../../../../../electron/main/services/journal/journal'
import type { Journal, NewIntent } from '../../../../../../electron/main/services/journal/journal'
import type { JournalKeyStore } from '../../../../../../electron/main/services/journal/journal-seal'

const opened: Journal[] = []
afterEach(async () => {
  for (const journal of opened.splice(0)) await journal.close()
})

/** The keychain as the journal sees it, in memory (the keytar store is tested on its own). */
function memoryKeychain(): JournalKeyStore & { value: string | null } {
  const store = {
    value: null as string | null,
    read: async () => store.value,
    write: async (value: string) => {
      store.value = value
    },
  }
  return store
}

const unavailableKeychain: JournalKeyStore = {
  read: async () => {
    throw new Error('no Secret Service on this machine')
  },
  write: async () => {
    throw new Error('no Secret Service on this machine')
  },
}

async function open(directory: string, keys?: JournalKeyStore): Promise<Journal> {
  const journal = await openJournal(directory, undefined, keys ? { keys } : {})
  opened.push(journal)
  return journal
}

async function close(journal: Journal): Promise<void> {
  opened.splice(opened.indexOf(journal), 1)
  await journal.close()
}

function intent(reference: string, amount: string): NewIntent {
  return {
    reference,
    kind: 'payout',
    profileId: 'sandbox',
    mode: 'live',
    request: {
      reference,
      destination: {
        type: 'bank_account',
        amount,
        currency: 'NGN',
        bank_account: { bank: '044', account: '0123456789' },
      },
    },
  }
}

/**
 * What someone with the file and no key does: changes a record, then recomputes every record's
 * hash and link so the plain chain verifies again. `seals`: keep each old seal, or strip them all.
 */
async function editAndRecompute(file: string, from: string, to: string, seals: 'keep' | 'strip'): Promise<void> {
  const lines = (await readFile(file, 'utf8')).trim().split('\n')
  let prev = '0'.repeat(64)
  const out: string[] = []
  for (const line of lines) {
    const { hash: _hash, mac, ...record } = JSON.parse(line.replace(from, to)) as Record<string, unknown>
    record['prev'] = prev
    const hash = createHash('sha256').update(JSON.stringify(record)).digest('hex')
    out.push(JSON.stringify(seals === 'keep' && mac !== undefined ? { ...record, hash, mac } : { ...record, hash }))
    prev = hash
  }
  await writeFile(file, `${out.join('\n')}\n`)
}

async function threeRecords(directory: string, keys?: JournalKeyStore): Promise<Journal> {
  const journal = await open(directory, keys)
  await journal.record(intent('seal-1', '1500.50'))
  await journal.append('seal-1', { state: 'failed', note: 'Refused by the payments service' })
  await journal.record(intent('seal-2', '2500.00'))
  return journal
}

describe('the sealed journal', () => {
  it('names the record changed offline even when every hash of the chain was recomputed', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'journal-seal-'))
    const keys = memoryKeychain()
    const journal = await threeRecords(directory, keys)
    expect(await journal.verify()).toEqual({ ok: true, records: 3, seal: { sealedFrom: 1, note: null } })
    await close(journal)

    await editAndRecompute(join(directory, JOURNAL_FILE_NAME), '"amount":"2500.00"', '"amount":"9500.00"', 'keep')
    const reopened = await open(directory, keys)
    const report = await reopened.verify()
    expect(report).toMatchObject({
      ok: false,
      records: 2,
      firstBroken: { seq: 3, line: 3, reason: expect.stringMatching(/seal does not match.*hashes recomputed/) },
    })
  })

  it('refuses records stripped of their seals and rewritten as an unsealed chain', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'journal-seal-'))
    const keys = memoryKeychain()
    await close(await threeRecords(directory, keys))
    await editAndRecompute(join(directory, JOURNAL_FILE_NAME), '"amount":"1500.50"', '"amount":"1900.50"', 'strip')
    const report = await (await open(directory, keys)).verify()
    expect(report).toMatchObject({
      ok: false,
      records: 0,
      firstBroken: {
        seq: 1,
        reason: expect.stringMatching(/carries no seal, though this journal is sealed from record 1/),
      },
    })
  })

  it('seals a journal written before the seal from its next record, which then fixes the records before it', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'journal-seal-'))
    await close(await threeRecords(directory))
    const keys = memoryKeychain()
    const upgraded = await open(directory, keys)
    await upgraded.append('seal-2', { state: 'sent', note: 'Accepted' })
    expect(await upgraded.verify()).toEqual({
      ok: true,
      records: 4,
      seal: {
        sealedFrom: 4,
        note: 'Records 1 to 3 were written before this desk sealed its journal: their chain is checked, and the first sealed record fixes them.',
      },
    })
    await close(upgraded)
    // An edit of an old, unsealed record with the chain recomputed breaks the first sealed one.
    await editAndRecompute(join(directory, JOURNAL_FILE_NAME), '"amount":"2500.00"', '"amount":"9500.00"', 'keep')
    expect(await (await open(directory, keys)).verify()).toMatchObject({
      ok: false,
      firstBroken: { seq: 4, reason: expect.stringMatching(/seal does not match/) },
    })
  })

  it('works without a keychain, and Verify says an intact answer cannot rule out a recomputed chain', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'journal-seal-'))
    const journal = await threeRecords(directory, unavailableKeychain)
    expect(journal.status.writable).toBe(true)
    expect(await journal.verify()).toEqual({
      ok: true,
      records: 3,
      seal: {
        sealedFrom: null,
        note: 'Its records carry no seal: the OS keychain cannot be used (no Secret Service on this machine), so records written now carry no seal. The chain is checked, but an edit that recomputed every hash would not be found.',
      },
    })
    const line = (await readFile(join(directory, JOURNAL_FILE_NAME), 'utf8')).split('\n')[0]!
    expect(line).not.toContain('"mac"')
  })

  it('says records were cut from its end when the journal is shorter than when this desk sealed it', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'journal-seal-'))
    await close(await threeRecords(directory))
    const keys = memoryKeychain()
    await close(await open(directory, keys)) // the key seals from record 4
    const file = join(directory, JOURNAL_FILE_NAME)
    const lines = (await readFile(file, 'utf8')).trim().split('\n')
    await writeFile(file, `${lines.slice(0, 2).join('\n')}\n`)
    expect(await (await open(directory, keys)).verify()).toMatchObject({
      ok: false,
      firstBroken: { seq: 3, reason: expect.stringMatching(/ends at record 2.*up to at least record 3.*removed/) },
    })
  })
})
