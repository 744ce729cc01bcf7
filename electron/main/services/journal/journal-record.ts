/**
 * One line of the journal file and its hash chain. Each record carries the hash of the one
 * before it and its own hash over its content, so any change, insertion or removal of a record
 * breaks a link that Verify finds.
 */
import { createHash } from 'node:crypto'
import type { MovementKind, MovementState, Verification } from '../../../../shared/domain/journal'

export const GENESIS_HASH = '0'.repeat(64)

interface RecordBase {
  seq: number
  at: string
  reference: string
  movement: MovementKind
  prev: string
}

/** Written before the request leaves: what is about to be sent, by whom, for which profile. */
export interface IntentRecord extends RecordBase {
  type: 'intent'
  profileId: string
  mode: 'sandbox' | 'test' | 'live'
  runId?: string
  request: Record<string, unknown>
}

/** Everything after the intent: sending, answers, verifications, state changes. */
export interface EventRecord extends RecordBase {
  type: 'event'
  state?: MovementState
  note: string
  verification?: Verification
  data?: Record<string, unknown>
}

export type JournalRecord = IntentRecord | EventRecord
export type UnsealedRecord = Omit<IntentRecord, 'hash'> | Omit<EventRecord, 'hash'>
export type SealedRecord = JournalRecord & { hash: string }

export function hashOf(unsealed: object): string {
  return hashOfText(JSON.stringify(unsealed))
}

function hashOfText(text: string): string {
  return createHash('sha256').update(text).digest('hex')
}

/** The record with its hash, as one line of text (without the newline). */
export function seal(record: JournalRecord): { line: string; hash: string } {
  const hash = hashOf(record)
  return { line: JSON.stringify({ ...record, hash }), hash }
}

/**
 * Field names that must never be journaled: keys and card secrets. Compared without case, `_` or
 * `-`, so `cardNumber`, `card_number` and `Card-Number` are all refused.
 */
const FORBIDDEN_KEYS = new Set([
  'pan',
  'cvv',
  'cvv2',
  'cvc',
  'pin',
  'otp',
  'number',
  'cardnumber',
  'chargedata',
  'secret',
  'secretkey',
  'encryptionkey',
  'apikey',
  'password',
  'authorization',
])

function normaliseKey(key: string): string {
  return key.toLowerCase().replace(/[_-]/g, '')
}

/**
 * Refuses, as a bug, a record that carries a field the journal must never hold. Callers sanitise
 * (card data as first six and last four only); this is the last line of defence.
 */
export function assertJournalSafe(value: unknown, path = 'record'): void {
  if (Array.isArray(value)) {
    value.forEach((item, index) => assertJournalSafe(item, `${path}[${index}]`))
    return
  }
  if (value === null || typeof value !== 'object') return
  for (const [key, inner] of Object.entries(value)) {
    if (FORBIDDEN_KEYS.has(normaliseKey(key)) && inner !== undefined && inner !== null) {
      throw new Error(`Journal refused ${path}.${key}: secrets and card data are never journaled.`)
    }
    assertJournalSafe(inner, `${path}.${key}`)
  }
}

/** Parses one line; null when it is not a complete, well-formed record. */
export function parseRecord(line: string): SealedRecord | null {
  let value: unknown
  try {
    value = JSON.parse(line)
  } catch {
    return null
  }
  if (!value || typeof value !== 'object') return null
  const record = value as Partial<SealedRecord>
  if (
    typeof record.seq !== 'number' ||
    typeof record.at !== 'string' ||
    typeof record.reference !== 'string' ||
    typeof record.prev !== 'string' ||
    typeof record.hash !== 'string' ||
    !/^[0-9a-f]{64}$/.test(record.hash) ||
    (record.type !== 'intent' && record.type !== 'event')
  ) {
    return null
  }
  return record as SealedRecord
}

/**
 * Checks a record's own hash against the line exactly as it is on disk. The hash was taken over
 * the record's JSON before `hash` was added as its last field, so that text is the line without
 * its `,"hash":"..."` ending. Working on the text, not on a re-serialised parse, matters: JSON.parse
 * reorders integer-like keys (a metadata key "123"), which would make an intact record look changed.
 */
export function lineHashMatches(line: string, record: SealedRecord): boolean {
  const ending = `,"hash":"${record.hash}"}`
  if (!line.endsWith(ending)) return false
  return hashOfText(`${line.slice(0, -ending.length)}}`) === record.hash
}
