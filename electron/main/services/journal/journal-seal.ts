/**
 * The journal's seal (decision 107): each record written carries, after its SHA-256 `hash`, a
 * `mac`, HMAC-SHA-256 of that hash under a key kept in the OS keychain, never in the journal's
 * folder. The hash chain alone can be recomputed by anyone who edits the file; the seals cannot
 * without the key, so Verify names the first record changed even when every hash was recomputed.
 *
 * The keychain entry holds the desk's seal keys, each with the record number it seals from: a
 * journal written before the seal (or while the keychain was unavailable, or after its key was
 * lost) keeps its records unsealed, and the key made then seals from the next record on. Since a
 * record's hash covers the one before it, the first sealed record also fixes every record before
 * it. A record at or after a key's start without a seal, or with one that does not match, is broken.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { resolve } from 'node:path'
import { z } from 'zod'
import type { SecretStore } from '../secrets'

/** Where the keys are kept: the keychain (SecretStore), or nothing when it cannot be used. */
export interface JournalKeyStore {
  /** The stored keyring text, or null when there is none yet. Throws when the keychain is unavailable. */
  read(): Promise<string | null>
  write(value: string): Promise<void>
}

/**
 * The seal's keys in the OS keychain, under an id of this journal's folder: each installation (and
 * each test app, with its own user data) has its own, and a journal never meets another's keys.
 */
export function keychainJournalKeys(keychain: SecretStore, journalDirectory: string): JournalKeyStore {
  const id = `journal-${createHash('sha256').update(resolve(journalDirectory)).digest('hex').slice(0, 24)}`
  return {
    read: () => keychain.get(id, 'journal-seal'),
    write: (value) => keychain.set(id, 'journal-seal', value),
  }
}

export interface SealKey {
  /** The first record number this key seals. */
  since: number
  key: Buffer
}

const keyringText = z.object({
  version: z.literal(1),
  keys: z.array(z.object({ since: z.number().int().min(1), key: z.string().regex(/^[A-Za-z0-9+/]{43}=$/) })).min(1),
})

export interface JournalSealState {
  /** The keys, oldest first; empty when the keychain could not be used. */
  keys: SealKey[]
  /** Why the journal is not sealed, in words for the Verify screen; null when it is. */
  unsealedWhy: string | null
  /** Records cut from the journal's end since this desk sealed them, in words; null when none. */
  removed?: string | null
}

/** What the journal seals with from now on: the keys in the keychain, and a new one when needed. */
export async function loadSealKeys(store: JournalKeyStore, nextSeq: number): Promise<JournalSealState> {
  let keys: SealKey[]
  try {
    const text = await store.read()
    keys = text === null ? [] : parseKeyring(text)
  } catch (error) {
    return {
      keys: [],
      unsealedWhy: `the OS keychain cannot be used (${(error as Error).message}), so records written now carry no seal`,
    }
  }
  // No key yet (a journal from before the seal, or a keychain that lost it): seal from the next
  // record. A key that starts after the journal's end means records were cut from it: said by
  // Verify, and a new key seals what is written from now on.
  const last = keys.at(-1)
  let removed: string | null = null
  if (last && last.since > nextSeq)
    removed = `the journal ends at record ${nextSeq - 1}, but this desk sealed it up to at least record ${last.since - 1}: records were removed from its end`
  if (!last || last.since > nextSeq) {
    keys = [...keys.filter((key) => key.since < nextSeq), { since: nextSeq, key: randomBytes(32) }]
    try {
      await store.write(keyringOf(keys))
    } catch (error) {
      return {
        keys: [],
        unsealedWhy: `the OS keychain cannot keep the journal's key (${(error as Error).message}), so records written now carry no seal`,
        removed,
      }
    }
  }
  return { keys, unsealedWhy: null, removed }
}

function parseKeyring(text: string): SealKey[] {
  const parsed = keyringText.safeParse(JSON.parse(text))
  if (!parsed.success) throw new Error("the journal's keychain entry is not in the form this app writes")
  return parsed.data.keys
    .map((entry) => ({ since: entry.since, key: Buffer.from(entry.key, 'base64') }))
    .sort((a, b) => a.since - b.since)
}

function keyringOf(keys: SealKey[]): string {
  return JSON.stringify({
    version: 1,
    keys: keys.map((key) => ({ since: key.since, key: key.key.toString('base64') })),
  })
}

/** The key that seals record `seq`, or null when the record is from before every key. */
export function keyFor(keys: readonly SealKey[], seq: number): SealKey | null {
  let found: SealKey | null = null
  for (const key of keys) if (key.since <= seq) found = key
  return found
}

export function sealOf(key: SealKey, hash: string): string {
  return createHmac('sha256', key.key).update(hash).digest('hex')
}

/** Why record `seq` fails its seal, or null when it holds (or is from before every key). */
export function sealProblem(
  keys: readonly SealKey[],
  seq: number,
  hash: string,
  mac: string | undefined,
): string | null {
  const key = keyFor(keys, seq)
  if (!key) return null
  if (mac === undefined)
    return `it carries no seal, though this journal is sealed from record ${key.since}: it was written or rewritten without this desk's key`
  const expected = Buffer.from(sealOf(key, hash), 'hex')
  const given = Buffer.from(mac, 'hex')
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return "its seal does not match this desk's key: it was changed after it was written, and the hashes recomputed to hide it"
  return null
}
