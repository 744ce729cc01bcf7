/**
 * One line of the journal file and its hash chain. Each record carries the hash of the one
 * before it and its own hash over its content, so any change, insertion or removal of a record
 * breaks a link that Verify finds.
 */
import { createHash } from 'node:crypto'
import type { MovementKind, MovementState, Verification } from '../../../../shared/domain/journal'
import { AppFailure } from '../../../../shared/result'
import {
  isSecretFieldName,
  looksLikeCardNumber,
  normaliseFieldName,
  secretFieldMeaning,
} from '../../../../shared/rules/sensitive-data'

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
  /** What the movement rests on, never sent (decision 124: a batch's confirmations). */
  evidence?: Record<string, unknown>
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
/** A record as written: its SHA-256 `hash`, and its seal `mac` when the journal is sealed (decision 107). */
export type SealedRecord = JournalRecord & { hash: string; mac?: string }

function hashOfText(text: string): string {
  return createHash('sha256').update(text).digest('hex')
}

/**
 * The record with its hash, as one line of text (without the newline). With a seal (decision 107,
 * journal-seal.ts), its HMAC over the hash follows the hash as the line's last field.
 */
export function seal(record: JournalRecord, macOf?: (hash: string) => string): { line: string; hash: string } {
  // The line is the hashed text with the hash (and mac) added as its last fields, as
  // lineHashMatches reads it back: one serialisation of the record, not two (a batch's intent is
  // some 10 KB of JSON, sealed on main as each batch leaves).
  const text = JSON.stringify(record)
  const hash = hashOfText(text)
  const ending = `"hash":"${hash}"${macOf ? `,"mac":"${macOf(hash)}"` : ''}}`
  return { line: `${text.slice(0, -1)}${text.length > 2 ? ',' : ''}${ending}`, hash }
}

/**
 * Fields whose values are account or phone numbers and service identifiers, never card data: a
 * Kenyan account number may be 13 to 19 digits and pass Luhn, and must still be journaled.
 */
const NOT_CARD_DATA = new Set([
  'account',
  'accountnumber',
  'accountno',
  'mobilenumber',
  'phone',
  'phonenumber',
  'traceid',
])

/** What the guard knows of main's registered secrets (the log's registry). */
export interface JournalSecrets {
  values(): string[]
}

/** A value refused by the guard: a caller's input (bad_request) naming the field; nothing was written. */
export class JournalRefusal extends AppFailure {
  constructor(
    readonly path: string,
    reason: string,
  ) {
    super('bad_request', `The journal refused ${path}: ${reason}; nothing was written or sent.`, {
      issues: [{ path, message: reason }],
    })
    this.name = 'JournalRefusal'
  }
}

/**
 * Refuses a record that carries card data or a secret, before anything is written: a field named
 * like card data or a key (`pin`, `cvv`, `number`, `secret_key`, compared without case, `_` or `-`,
 * shared/rules/sensitive-data.ts), a value holding a card number (by pattern and Luhn, except in
 * account and phone number fields), or a value holding a registered secret of 8 characters or more.
 * Callers sanitise (card data as first six and last four only) and the shared rules refuse such
 * input up front; this is the last line of defence.
 */
export function assertJournalSafe(value: unknown, path = 'record', secrets?: JournalSecrets, key = ''): void {
  // The registry's secrets once per record, not once per string in it.
  const long = secrets ? secrets.values().filter((secret) => secret.length >= 8) : []
  checkValue(value, { up: null, step: path, root: true }, long, key)
}

/**
 * Where a value stands in the record, said only when it is refused: the guard walks every field of
 * every record (a batch's intent holds some 600), and spelling each path as it goes cost more than
 * the checks themselves.
 */
interface ValuePath {
  up: ValuePath | null
  /** A field's name (`.name`), an item's index (`[3]`), or the root's own words. */
  step: string | number
  root?: true
}

function spelled(path: ValuePath): string {
  let text = ''
  for (let at: ValuePath | null = path; at; at = at.up)
    text = (typeof at.step === 'number' ? `[${at.step}]` : at.root ? at.step : `.${at.step}`) + text
  return text
}

/** Whether a value under a field of this name is exempt from the card-number pattern (kept by name). */
const exemptByName = new Map<string, boolean>()

function exemptFromCardPattern(key: string): boolean {
  let exempt = exemptByName.get(key)
  if (exempt === undefined) {
    exempt = NOT_CARD_DATA.has(normaliseFieldName(key))
    if (exemptByName.size >= 4096) exemptByName.clear()
    exemptByName.set(key, exempt)
  }
  return exempt
}

function checkValue(value: unknown, path: ValuePath, secrets: readonly string[], key: string): void {
  if (typeof value === 'string') {
    if (value.length < 8) return
    if (!exemptFromCardPattern(key) && looksLikeCardNumber(value)) {
      throw new JournalRefusal(spelled(path), 'it looks like a card number, and card numbers are never journaled')
    }
    for (const secret of secrets) {
      if (value.includes(secret)) {
        throw new JournalRefusal(spelled(path), 'it holds a key or card data that this app keeps secret')
      }
    }
    return
  }
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) checkValue(value[index], { up: path, step: index }, secrets, key)
    return
  }
  if (value === null || typeof value !== 'object') return
  for (const name in value) {
    if (!Object.prototype.hasOwnProperty.call(value, name)) continue
    const inner = (value as Record<string, unknown>)[name]
    if (isSecretFieldName(name) && inner !== undefined && inner !== null) {
      throw new JournalRefusal(
        `${spelled(path)}.${name}`,
        `a field named "${name}" holds ${secretFieldMeaning(name)}, and secrets and card data are never journaled`,
      )
    }
    checkValue(inner, { up: path, step: name }, secrets, name)
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
    (record.mac !== undefined && (typeof record.mac !== 'string' || !/^[0-9a-f]{64}$/.test(record.mac))) ||
    (record.type !== 'intent' && record.type !== 'event')
  ) {
    return null
  }
  return record as SealedRecord
}

/**
 * Checks a record's own hash against the line exactly as it is on disk. The hash was taken over
 * the record's JSON before `hash` was added as its last field, so that text is the line without
 * its `,"hash":"..."` ending (and `,"mac":"..."` after it, on a sealed record). Working on the text, not on a re-serialised parse, matters: JSON.parse
 * reorders integer-like keys (a metadata key "123"), which would make an intact record look changed.
 */
export function lineHashMatches(line: string, record: SealedRecord): boolean {
  const ending = `,"hash":"${record.hash}"${record.mac === undefined ? '' : `,"mac":"${record.mac}"`}}`
  if (!line.endsWith(ending)) return false
  return hashOfText(`${line.slice(0, -ending.length)}}`) === record.hash
}
