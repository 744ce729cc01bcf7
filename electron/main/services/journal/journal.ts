/**
 * The journal: the desk's own durable record of every money movement. An append-only file of JSON
 * lines (journal.jsonl in userData/journal), each record fsynced before the call returns, so an
 * intent is on disk before its request leaves; calls made while a write is under way share the
 * next write and fsync (group commit). One writer at a time (journal.lock). On open, a
 * torn last record (a crash mid-write) is set aside into its own file and reported; everything
 * before it is kept. Records are hash-chained; `verify()` reads the file again and names the first
 * broken link. See decision 13 (docs/decisions/) for why JSON lines rather than SQLite.
 *
 * Size: the one journal (decision 13): its write path (group commit, fsync), its lock, the
 * torn-record recovery and the hash chain share the file handle and the order of the records;
 * apart, each part would reach into the others' state.
 */
import { randomBytes } from 'node:crypto'
import { mkdir, open, readFile, stat, writeFile } from 'node:fs/promises'
import type { FileHandle } from 'node:fs/promises'
import { join } from 'node:path'
import { setImmediate as nextTurn } from 'node:timers/promises'
import type {
  JournalStatus,
  JournalVerificationReport,
  MovementKind,
  MovementState,
  MovementView,
  Verification,
} from '../../../../shared/domain/journal'
import { isFinal } from '../../../../shared/domain/journal'
import { AppFailure } from '../../../../shared/result'
import { acquireJournalLock, JournalInUseError } from './journal-lock'
import type { JournalLock } from './journal-lock'
import { maskText } from '../masking'
import type { EventRecord, IntentRecord, JournalRecord, JournalSecrets, SealedRecord } from './journal-record'
import { GENESIS_HASH, assertJournalSafe, lineHashMatches, parseRecord, seal } from './journal-record'
import { syncDirectory } from '../files'
import type { JournalKeyStore, JournalSealState } from './journal-seal'
import { keyFor, loadSealKeys, sealOf, sealProblem } from './journal-seal'

export const JOURNAL_FILE_NAME = 'journal.jsonl'
export const JOURNAL_LOCK_NAME = 'journal.lock'

export interface NewIntent {
  reference: string
  kind: MovementKind
  profileId: string
  mode: 'sandbox' | 'test' | 'live'
  runId?: string
  /** The request body as it will be sent, sanitised by the caller (never keys or card numbers). */
  request: Record<string, unknown>
  /**
   * What a person recorded that the movement rests on, sealed with its intent before the request
   * leaves: a bulk batch's confirmations of changed or shared accounts (decision 124). Never sent.
   */
  evidence?: Record<string, unknown>
}

export interface NewEvent {
  state?: MovementState
  note: string
  verification?: Verification
  data?: Record<string, unknown>
}

export interface Journal {
  readonly status: JournalStatus
  /** Writes the intent and fsyncs it; a reference already in the journal is a conflict. */
  record(intent: NewIntent): Promise<MovementView>
  /** Appends one event to a movement and fsyncs it. */
  append(reference: string, event: NewEvent): Promise<MovementView>
  /**
   * Appends several records with one fsync (bulk work): all or, after a crash, a prefix. (Separate
   * calls made while a write is under way are grouped into one fsync too; each still returns only
   * once its own records are on disk.)
   */
  appendMany(entries: JournalEntry[]): Promise<void>
  get(reference: string): MovementView | undefined
  has(reference: string): boolean
  /** Movements, newest first; `since` (an ISO instant): only those created then or later. */
  list(filter?: {
    kind?: MovementKind
    states?: readonly MovementState[]
    runId?: string
    since?: string
  }): MovementView[]
  /** Reads the file from disk again and checks every link of the chain. */
  verify(): Promise<JournalVerificationReport>
  close(): Promise<void>
}

export interface JournalOptions {
  /**
   * Main's registered secrets (the log's registry): a value holding one is refused, and notes are
   * masked like log lines. Card numbers and secret field names are refused without it too.
   */
  secrets?: JournalSecrets
  /** The file handle's writes and fsyncs go through this (tests watch their order). */
  wrapHandle?: (handle: FileHandle) => FileHandle
  /**
   * Where the seal's keys are kept (the OS keychain, decision 107). Without it, or when the keychain
   * cannot be used, records carry no seal and Verify says so.
   */
  keys?: JournalKeyStore
}

export async function openJournal(
  directory: string,
  clock: () => Date = () => new Date(),
  options: JournalOptions = {},
): Promise<Journal> {
  await mkdir(directory, { recursive: true })
  const file = join(directory, JOURNAL_FILE_NAME)
  const lock: JournalLock = await acquireJournalLock(join(directory, JOURNAL_LOCK_NAME))
  try {
    return await openLocked(directory, file, lock, clock, options)
  } catch (error) {
    await lock.release()
    throw error
  }
}

async function openLocked(
  directory: string,
  file: string,
  lock: JournalLock,
  clock: () => Date,
  options: JournalOptions,
): Promise<Journal> {
  const { secrets } = options
  const loaded = await loadFile(directory, file)
  // No key store given (tools, tests of the plain chain): no seal, and Verify says nothing of one.
  const sealing = options.keys ? await loadSealKeys(options.keys, (loaded.records.at(-1)?.seq ?? 0) + 1) : undefined
  const movements = new Map<string, MovementView>()
  for (const record of loaded.records) apply(movements, record)

  const opened = await open(file, 'a', 0o600)
  const handle: FileHandle = options.wrapHandle ? options.wrapHandle(opened) : opened
  await syncDirectory(directory)
  let lastSeq = loaded.records.at(-1)?.seq ?? 0
  let lastHash = loaded.records.at(-1)?.hash ?? GENESIS_HASH
  let lastAt = loaded.records.at(-1)?.at ?? null
  let size = loaded.bytes
  let queue: Promise<unknown> = Promise.resolve()
  let closed = false
  /** Set when a write failed and the file could not be put back as it was: nothing more is written. */
  let broken: string | null = null

  const status: JournalStatus = {
    writable: true,
    path: file,
    records: loaded.records.length,
    damagedLines: loaded.damagedLines,
    ...(loaded.setAside ? { setAside: loaded.setAside } : {}),
  }

  function build(entry: JournalEntry): JournalRecord {
    const at = clock().toISOString()
    const seq = lastSeq + 1
    if ('intent' in entry) {
      const { intent } = entry
      const record: IntentRecord = {
        seq,
        at,
        type: 'intent',
        reference: intent.reference,
        movement: intent.kind,
        prev: lastHash,
        profileId: intent.profileId,
        mode: intent.mode,
        ...(intent.runId ? { runId: intent.runId } : {}),
        request: intent.request,
        ...(intent.evidence ? { evidence: intent.evidence } : {}),
      }
      return record
    }
    const current = movements.get(entry.reference)
    if (!current) throw new AppFailure('not_found', `The journal has no movement with reference ${entry.reference}.`)
    const { event } = entry
    if (event.state && isFinal(current.state) && event.state !== current.state) {
      throw new AppFailure(
        'conflict',
        `The journal refused to move ${entry.reference} from ${current.state} to ${event.state}: ${current.state} is final.`,
      )
    }
    if (event.state === 'recorded') {
      throw new AppFailure('conflict', `The journal refused to move ${entry.reference} back to recorded.`)
    }
    const record: EventRecord = {
      seq,
      at,
      type: 'event',
      reference: entry.reference,
      movement: current.kind,
      prev: lastHash,
      ...(event.state ? { state: event.state } : {}),
      // A note is text (often a service's or library's message): masked like a log line, not refused.
      note: maskText(event.note, secrets, { shortValues: false }),
      ...(event.verification ? { verification: event.verification } : {}),
      ...(event.data ? { data: event.data } : {}),
    }
    return record
  }

  /** Writes asked for while the file is busy: the next flush takes them all (group commit). */
  let pending: PendingWrite[] = []
  let flushQueued = false

  /**
   * One call's entries, built on top of everything built before them. The views change as they are
   * built (later entries may refer to a movement the call creates). Returns how to put back the
   * views and the chain head as they were before this call; throws, having put them back already,
   * when an entry is refused (nothing of the call is kept).
   */
  function buildCall(entries: JournalEntry[], lines: string[]): () => void {
    const saved = { lastSeq, lastHash, lastAt, lines: lines.length }
    /** The views as they were before this call: undefined for a movement the call creates. */
    const before = new Map<string, MovementView | undefined>()
    const remember = (reference: string): void => {
      if (!before.has(reference)) {
        const found = movements.get(reference)
        before.set(reference, found ? clone(found) : undefined)
      }
    }
    const rollBack = (): void => {
      for (const [reference, view] of before) {
        if (view) movements.set(reference, view)
        else movements.delete(reference)
      }
      ;({ lastSeq, lastHash, lastAt } = saved)
      lines.length = saved.lines
    }
    try {
      for (const entry of entries) {
        if ('intent' in entry) {
          assertJournalSafe(entry.intent.request, 'request', secrets)
          if (entry.intent.evidence) assertJournalSafe(entry.intent.evidence, 'evidence', secrets)
          if (movements.has(entry.intent.reference)) {
            throw new AppFailure(
              'conflict',
              `The reference ${entry.intent.reference} is already in the journal: a reference is used once.`,
            )
          }
          remember(entry.intent.reference)
        } else {
          if (entry.event.data) assertJournalSafe(entry.event.data, 'data', secrets)
          remember(entry.reference)
        }
        const record = build(entry)
        const key = sealing ? keyFor(sealing.keys, record.seq) : null
        const { line, hash } = seal(record, key ? (recordHash) => sealOf(key, recordHash) : undefined)
        lines.push(line)
        lastSeq = record.seq
        lastHash = hash
        lastAt = record.at
        apply(movements, { ...record, hash } as SealedRecord)
      }
    } catch (error) {
      // Nothing of the call is written: forget what it built.
      rollBack()
      throw error
    }
    return rollBack
  }

  /**
   * Writes are serialised, and grouped: every call that arrives while a write and its fsync are
   * under way waits for the next flush, which builds the calls in the order they came, writes all
   * their lines at once and fsyncs once (group commit). No call returns before its own records are
   * fsynced, so "journaled before it leaves" holds for each. A call whose entry is refused fails
   * alone; if the write or the fsync fails, every call of that flush fails and the views, the chain
   * head and the file are put back as they were before it.
   */
  function write(entries: JournalEntry[]): Promise<void> {
    const done = new Promise<void>((resolve, reject) => pending.push({ entries, resolve, reject }))
    if (!flushQueued) {
      flushQueued = true
      queue = queue.then(async () => {
        flushQueued = false
        const calls = pending
        pending = []
        try {
          await flush(calls)
        } catch (error) {
          // Not expected (flush settles every call itself); no caller may be left waiting.
          for (const call of calls) call.reject(error)
        }
      })
    }
    return done
  }

  async function flush(calls: PendingWrite[]): Promise<void> {
    if (closed || broken) {
      const error = closed
        ? new AppFailure('conflict', 'The journal is closed.')
        : new AppFailure('internal', broken ?? 'The journal cannot be written.')
      for (const call of calls) call.reject(error)
      return
    }
    const lines: string[] = []
    const built: Array<{ call: PendingWrite; rollBack: () => void }> = []
    let slice = performance.now()
    for (const call of calls) {
      // Many calls met in one flush (a run's intents journaled ahead) are built a few ms at a time,
      // main answering between (decision 161); none of them returns before the one fsync below.
      if (performance.now() - slice > BUILD_SLICE_MS) {
        await nextTurn()
        slice = performance.now()
      }
      try {
        built.push({ call, rollBack: buildCall(call.entries, lines) })
      } catch (error) {
        call.reject(error)
      }
    }
    if (lines.length === 0) {
      for (const { call } of built) call.resolve()
      return
    }
    const text = `${lines.join('\n')}\n`
    try {
      await handle.writeFile(text)
      await handle.sync()
    } catch (error) {
      // Latest first, so each view ends as it was before the first call that changed it.
      for (const { rollBack } of [...built].reverse()) rollBack()
      try {
        await handle.truncate(size)
        await handle.sync()
      } catch {
        broken = `The journal could not be written (${(error as Error).message}) nor put back as it was; restart the app.`
        status.writable = false
        status.message = broken
      }
      const failure = new AppFailure('internal', `The journal could not be written: ${(error as Error).message}`)
      for (const { call } of built) call.reject(failure)
      return
    }
    size += Buffer.byteLength(text, 'utf8')
    status.records += lines.length
    for (const { call } of built) call.resolve()
  }

  return {
    status,
    async record(intent) {
      await write([{ intent }])
      return clone(movements.get(intent.reference)!)
    },
    async append(reference, event) {
      await write([{ reference, event }])
      return clone(movements.get(reference)!)
    },
    appendMany: (entries) => write(entries),
    get: (reference) => {
      const found = movements.get(reference)
      return found ? clone(found) : undefined
    },
    has: (reference) => movements.has(reference),
    list(filter = {}) {
      const result: MovementView[] = []
      for (const movement of movements.values()) {
        if (filter.kind && movement.kind !== filter.kind) continue
        if (filter.states && !filter.states.includes(movement.state)) continue
        if (filter.runId && movement.runId !== filter.runId) continue
        // Compared before the clone: the limits read today's movements of a long journal (decision 127).
        if (filter.since && movement.createdAt < filter.since) continue
        result.push(clone(movement))
      }
      return result.reverse()
    },
    verify() {
      // Behind the writes, so a record being written is never mistaken for a torn one.
      const next = queue.then(async () => {
        const { lastHash: lastOnDisk, ...report } = await verifyFile(file, sealing)
        if (!report.ok) return report
        if (sealing?.removed) {
          return {
            ...report,
            ok: false,
            firstBroken: { seq: report.records + 1, line: report.records + 1, at: null, reason: sealing.removed },
          }
        }
        // The chain alone cannot see records cut from its end: this copy knows what it wrote last.
        if (report.records < lastSeq || (report.records === lastSeq && lastOnDisk !== lastHash)) {
          return {
            ok: false,
            records: report.records,
            firstBroken: {
              seq: report.records + 1,
              line: report.records + 1,
              at: report.records + 1 === lastSeq ? lastAt : null,
              reason: `the journal ends at record ${report.records}, but this copy wrote up to record ${lastSeq}: records were removed from its end`,
            },
          }
        }
        return { ok: true, records: report.records, ...(report.seal ? { seal: report.seal } : {}) }
      })
      queue = next.catch(() => undefined)
      return next
    },
    async close() {
      if (closed) return
      await queue
      closed = true
      await handle.close()
      await lock.release()
    },
  }
}

export type JournalEntry = { intent: NewIntent } | { reference: string; event: NewEvent }

interface PendingWrite {
  entries: JournalEntry[]
  resolve(): void
  reject(error: unknown): void
}

/** A flush builds its calls' records for at most about this long before main answers other work. */
const BUILD_SLICE_MS = 8

function clone(movement: MovementView): MovementView {
  return { ...movement, timeline: [...movement.timeline] }
}

function viewOfIntent(record: IntentRecord): MovementView {
  return {
    reference: record.reference,
    kind: record.movement,
    profileId: record.profileId,
    profileMode: record.mode,
    ...(record.runId ? { runId: record.runId } : {}),
    request: record.request,
    ...(record.evidence ? { evidence: record.evidence } : {}),
    state: 'recorded',
    createdAt: record.at,
    updatedAt: record.at,
    timeline: [{ seq: record.seq, at: record.at, state: 'recorded', note: 'Recorded in the journal before sending' }],
  }
}

function apply(movements: Map<string, MovementView>, record: SealedRecord): void {
  if (record.type === 'intent') {
    if (!movements.has(record.reference)) movements.set(record.reference, viewOfIntent(record))
    return
  }
  const movement = movements.get(record.reference)
  if (!movement) return
  movement.timeline.push({
    seq: record.seq,
    at: record.at,
    ...(record.state ? { state: record.state } : {}),
    note: record.note,
    ...(record.verification ? { verification: record.verification } : {}),
    ...(record.data ? { data: record.data } : {}),
  })
  if (record.state) movement.state = record.state
  if (record.verification) movement.lastVerification = record.verification
  movement.updatedAt = record.at
}

interface LoadedFile {
  records: SealedRecord[]
  damagedLines: number[]
  /** The size of the file as kept (after a torn end was cut). */
  bytes: number
  setAside?: { file: string; bytes: number; reason: string }
}

const NEWLINE = 0x0a

/**
 * Reads the journal. A last line without its newline, or one that does not parse, is a torn
 * write: it is copied to its own file (never dropped silently) and cut from the journal, and the
 * records before it stay as they are. Works on bytes: a write cut inside a multi-byte character
 * must not shift where the cut is made.
 */
async function loadFile(directory: string, file: string): Promise<LoadedFile> {
  let buffer: Buffer
  try {
    buffer = await readFile(file)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { records: [], damagedLines: [], bytes: 0 }
    throw error
  }
  const endsClean = buffer.length === 0 || buffer[buffer.length - 1] === NEWLINE
  // Where the last complete line ends (just after its newline).
  const completeEnd = endsClean ? buffer.length : buffer.lastIndexOf(NEWLINE) + 1
  const lines = buffer.subarray(0, completeEnd).toString('utf8').split('\n')
  lines.pop() // the empty string after the last newline
  const records: SealedRecord[] = []
  const damagedLines: number[] = []
  let keepBytes = completeEnd

  lines.forEach((line, index) => {
    const record = parseRecord(line)
    if (record !== null) records.push(record)
    else if (index === lines.length - 1 && endsClean) {
      // A complete last line that does not parse: a torn write whose newline made it to disk.
      keepBytes = buffer.subarray(0, completeEnd - 1).lastIndexOf(NEWLINE) + 1
    } else damagedLines.push(index + 1)
  })

  let setAside: LoadedFile['setAside']
  if (keepBytes < buffer.length) {
    const torn = buffer.subarray(keepBytes)
    const stamp = new Date().toISOString().replace(/[:.]/g, '-')
    const asideFile = join(directory, `journal.torn-${stamp}-${randomBytes(3).toString('hex')}.part`)
    await writeFile(asideFile, torn, { mode: 0o600, flush: true })
    await syncDirectory(directory)
    const handle = await open(file, 'r+')
    try {
      await handle.truncate(keepBytes)
      await handle.sync()
    } finally {
      await handle.close()
    }
    setAside = {
      file: asideFile,
      bytes: torn.length,
      reason: endsClean
        ? 'the last record could not be read (a write cut short by a crash)'
        : 'the last record was cut off mid-write (the app stopped while writing it)',
    }
  }
  return { records, damagedLines, bytes: keepBytes, ...(setAside ? { setAside } : {}) }
}

/**
 * Walks the file as it is on disk now and reports the first broken link, if any: a record's hash,
 * its link to the one before, its number, and (given the seal's keys, decision 107) its seal.
 */
export async function verifyFile(
  file: string,
  sealing?: JournalSealState,
): Promise<JournalVerificationReport & { lastHash: string }> {
  let text: string
  try {
    const info = await stat(file)
    if (info.size === 0) return { ok: true, records: 0, lastHash: GENESIS_HASH }
    text = await readFile(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { ok: true, records: 0, lastHash: GENESIS_HASH }
    throw error
  }
  const lines = text.split('\n')
  if (lines.at(-1) === '') lines.pop()
  let prevHash = GENESIS_HASH
  let expectedSeq = 1
  let count = 0
  let sealedWithoutKey = 0
  for (const [index, line] of lines.entries()) {
    const record = parseRecord(line)
    const lineNumber = index + 1
    if (!record) {
      return {
        ok: false,
        records: count,
        lastHash: prevHash,
        firstBroken: { seq: null, line: lineNumber, at: null, reason: 'the record cannot be read' },
      }
    }
    const broken = (reason: string): JournalVerificationReport & { lastHash: string } => ({
      ok: false,
      records: count,
      lastHash: prevHash,
      firstBroken: { seq: record.seq, line: lineNumber, at: record.at, reason },
    })
    if (!lineHashMatches(line, record))
      return broken('its content does not match its hash: it was changed after it was written')
    if (record.prev !== prevHash)
      return broken('it does not follow the record before it: a record was removed, inserted or changed')
    if (record.seq !== expectedSeq) return broken(`its number is ${record.seq} where ${expectedSeq} was expected`)
    const sealBroken = sealing ? sealProblem(sealing.keys, record.seq, record.hash, record.mac) : null
    if (sealBroken) return broken(sealBroken)
    if (record.mac !== undefined && sealing && !keyFor(sealing.keys, record.seq)) sealedWithoutKey += 1
    prevHash = record.hash
    expectedSeq += 1
    count += 1
  }
  return {
    ok: true,
    records: count,
    lastHash: prevHash,
    ...(sealing ? { seal: sealNote(sealing, count, sealedWithoutKey) } : {}),
  }
}

/** What an intact answer proves about the seal, in words (decision 107). */
function sealNote(
  sealing: JournalSealState,
  records: number,
  sealedWithoutKey: number,
): NonNullable<JournalVerificationReport['seal']> {
  const sealedFrom = sealing.keys[0]?.since ?? null
  if (sealedFrom === null)
    return {
      sealedFrom,
      note: `Its records carry no seal: ${sealing.unsealedWhy ?? 'no key'}. The chain is checked, but an edit that recomputed every hash would not be found.`,
    }
  if (sealedFrom > 1 && records > 0) {
    const before = Math.min(sealedFrom - 1, records)
    return {
      sealedFrom,
      note:
        sealedWithoutKey > 0
          ? `Records 1 to ${before} were sealed with a key this desk no longer holds (its keychain lost it): their chain is checked, their seals cannot be.`
          : `Records 1 to ${before} were written before this desk sealed its journal: their chain is checked, and the first sealed record fixes them.`,
    }
  }
  return { sealedFrom, note: null }
}

/**
 * The journal of a copy of the app that could not take the lock: readable nothing, writable
 * nothing, and every attempt to record a movement says why.
 */
export function unavailableJournal(error: JournalInUseError, path: string): Journal {
  const refuse = (): never => {
    throw new AppFailure('conflict', error.message)
  }
  return {
    status: { writable: false, path, records: 0, message: error.message, damagedLines: [] },
    record: async () => refuse(),
    append: async () => refuse(),
    appendMany: async () => refuse(),
    get: () => undefined,
    has: () => false,
    list: () => [],
    verify: async () => refuse(),
    close: async () => undefined,
  }
}

export { JournalInUseError }
