/**
 * The ZIP container of an XLSX, by fflate (decision 17, docs/decisions/).
 *
 * Writing: fflate's streaming `Zip` lays out the archive (local headers, data descriptors, central
 * directory); each entry is a `NativeDeflateEntry`, an fflate `ZipInputFile` whose content is
 * deflated by node:zlib's native compressor on libuv's thread pool, so main keeps answering while a
 * big sheet is packed. Content comes as chunks and is CRC-32'd and deflated as it comes: a sheet is
 * never held whole, only its compressed bytes. No ZIP64: past 4 GiB is refused.
 *
 * Reading: fflate's `unzipSync` lists the central directory; `zipEntryBytes` inflates only the entry
 * asked for, by node:zlib with a running count of the real bytes produced, stopped at a cap
 * whatever the directory declares (decision 101): a lying size costs neither memory nor time.
 * `centralRecords` reads the CRC-32s (fflate reports none) and `zipEntryBytes` checks them. An archive fflate cannot list, or with a method other than store or
 * deflate, is `null`, so the caller can hand the file to a more general reader.
 */
import { once } from 'node:events'
import { constants, crc32, createDeflateRaw, inflateRawSync } from 'node:zlib'
import type { DeflateRaw } from 'node:zlib'
import { unzipSync, Zip } from 'fflate'
import type { AsyncFlateStreamHandler, ZipInputFile } from 'fflate'

/** An entry: small text deflated in one go, or content that comes in chunks, deflated as it comes. */
export type ZipSource = { name: string; text: string } | { name: string; chunks: Iterable<string | Uint8Array> }

const MAX_32 = 0xffffffff
/** 1980-01-01 00:00, the earliest ZIP time: a fixed stamp keeps the bytes of an export reproducible. */
const FIXED_TIME = new Date(1980, 0, 1)

function tooLarge(name: string): Error {
  return new Error(`${name} is larger than 4 GiB, more than an XLSX without ZIP64 can hold`)
}

/** One entry of fflate's `Zip`, deflated by node:zlib on the thread pool, with its CRC-32 and size. */
class NativeDeflateEntry implements ZipInputFile {
  readonly compression = 8
  readonly mtime = FIXED_TIME
  crc = 0
  size = 0
  /** Set by `Zip.add`: where the compressed bytes go. */
  ondata: AsyncFlateStreamHandler = () => undefined
  private readonly deflate: DeflateRaw
  private readonly ended: Promise<unknown>

  constructor(
    readonly filename: string,
    level: number,
  ) {
    this.deflate = createDeflateRaw({ level, chunkSize: 64 * 1024 })
    // zlib's output is never on a SharedArrayBuffer, which is all fflate's type rules out.
    this.deflate.on('data', (part: Buffer<ArrayBuffer>) => this.ondata(null, part, false))
    this.ended = once(this.deflate, 'end')
    this.ended.catch(() => undefined) // awaited in end(); this only keeps an early failure from going unhandled
  }

  async write(bytes: Uint8Array): Promise<void> {
    this.crc = crc32(bytes, this.crc)
    this.size += bytes.length
    if (this.size > MAX_32) throw tooLarge(this.filename)
    // Waiting for the compressor between chunks is also where main gets to serve other work.
    if (!this.deflate.write(bytes)) await once(this.deflate, 'drain')
  }

  /** Size and CRC-32 are final here, before the last (empty) chunk tells `Zip` to write them. */
  async end(): Promise<void> {
    this.deflate.end()
    await this.ended
    this.ondata(null, new Uint8Array(0), true)
  }

  terminate(): void {
    this.deflate.destroy()
  }
}

function* asChunks(source: ZipSource): Iterable<string | Uint8Array> {
  if ('text' in source) yield source.text
  else yield* source.chunks
}

/**
 * A ZIP of the sources, in order, as the list of buffers to write (compressed content only is held).
 * Small texts get zlib's default level; the chunked content (the big sheet) the given, faster one.
 */
export async function zipEntries(sources: readonly ZipSource[], level = 1): Promise<Buffer[]> {
  const out: Buffer[] = []
  let total = 0
  let failure: Error | null = null
  const zip = new Zip((error, data) => {
    if (error) failure ??= error
    else {
      out.push(Buffer.from(data.buffer, data.byteOffset, data.byteLength))
      total += data.byteLength
    }
  })
  for (const source of sources) {
    const entry = new NativeDeflateEntry(source.name, 'text' in source ? constants.Z_DEFAULT_COMPRESSION : level)
    zip.add(entry)
    try {
      for (const chunk of asChunks(source)) {
        const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk
        if (bytes.length > 0) await entry.write(bytes)
      }
      await entry.end()
    } catch (error) {
      // A cell that fails its check stops the export: drop the compressor, nothing is written.
      zip.terminate()
      throw error
    }
    if (failure) throw failure
    if (total > MAX_32) throw tooLarge('the archive')
  }
  zip.end()
  if (failure) throw failure
  return out
}

// ---------- reading ----------

export interface ZipEntry {
  name: string
  /** 0 stored, 8 deflated. */
  compression: number
  /** The packed size. */
  size: number
  /** The unpacked size the directory declares. */
  originalSize: number
  /** The CRC-32 the directory declares. */
  crc: number
  /** Where its packed bytes start in the archive. */
  dataOffset: number
}

/**
 * Limits on what a ZIP from a person may ask us to unpack, checked on its central directory before
 * anything is inflated (the rule of Apache POI's ZipSecureFile): an entry that inflates more than 100
 * times its packed size, once it passes 16 MiB, is a ZIP bomb; so is an archive of more than 5,000
 * entries (a workbook has a few dozen parts; tens of thousands make readers crawl). Our own exports
 * pack about 10:1, and spreadsheets saved by Excel or LibreOffice about as much.
 */
export const ZIP_LIMITS = {
  maxEntries: 5_000,
  maxInflationRatio: 100,
  ratioCheckedFromBytes: 16 * 1024 * 1024,
} as const

export interface ZipListing {
  name: string
  /** Packed size. */
  size: number
  /** Unpacked size the directory declares. */
  originalSize: number
}

/** What is wrong with an archive's directory as a ZIP bomb, said for a person; null when nothing. */
export function zipBombProblem(entries: readonly ZipListing[]): string | null {
  if (entries.length > ZIP_LIMITS.maxEntries)
    return `it holds ${entries.length.toLocaleString('en-US')} parts, where a workbook has a few dozen`
  for (const entry of entries) {
    if (
      entry.originalSize > ZIP_LIMITS.ratioCheckedFromBytes &&
      entry.originalSize > entry.size * ZIP_LIMITS.maxInflationRatio
    ) {
      const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024).toLocaleString('en-US')} MB`
      return `its part ${entry.name.slice(0, 80)} would unpack from ${Math.max(1, Math.round(entry.size / 1024)).toLocaleString('en-US')} KB to ${mb(entry.originalSize)} (a ZIP bomb)`
    }
  }
  return null
}

/** A problem with an entry that the directory promised: the file is damaged. */
export class ZipDamage extends Error {
  override name = 'ZipDamage'
}

/**
 * An entry (or the whole archive) produced more real bytes than the cap allows: inflation was
 * stopped there, whatever the directory declared (decision 101). The message names the entry.
 */
export class ZipTooLarge extends ZipDamage {
  override name = 'ZipTooLarge'
  constructor(
    readonly entry: string,
    message: string,
  ) {
    super(message)
  }
}

/**
 * What unpacking one file may produce in all, counted in real bytes as entries are inflated
 * (decision 101): one budget per file read, shared by every entry taken from it.
 */
export class UnpackBudget {
  private used = 0
  constructor(readonly limit: number) {}
  get remaining(): number {
    return Math.max(0, this.limit - this.used)
  }
  spend(bytes: number): void {
    this.used += bytes
  }
}

const MiB = (bytes: number): string => `${Math.max(1, Math.round(bytes / 1024 / 1024)).toLocaleString('en-US')} MB`

const END_OF_DIRECTORY = 0x06054b50
const CENTRAL_HEADER = 0x02014b50
const LOCAL_HEADER = 0x04034b50

interface CentralRecord {
  crc: number
  /** Where the entry's packed bytes start (after its local header). */
  dataOffset: number
}

/**
 * Each unencrypted entry's CRC-32 and where its packed bytes start, from the central directory and
 * the local headers: what fflate reads past. Runs on a directory fflate has already listed; a ZIP64
 * or encrypted entry, or one whose local header is not where the directory says, is left out.
 */
function centralRecords(bytes: Uint8Array): Map<string, CentralRecord> {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const records = new Map<string, CentralRecord>()
  let end = view.length - 22
  while (end >= 0 && view.readUInt32LE(end) !== END_OF_DIRECTORY) end--
  if (end < 0) return records
  const count = view.readUInt16LE(end + 10)
  let at = view.readUInt32LE(end + 16)
  for (let n = 0; n < count && at + 46 <= end && view.readUInt32LE(at) === CENTRAL_HEADER; n++) {
    const nameEnd = at + 46 + view.readUInt16LE(at + 28)
    const encrypted = (view.readUInt16LE(at + 8) & 0x0001) !== 0
    const local = view.readUInt32LE(at + 42)
    if (!encrypted && local + 30 <= view.length && view.readUInt32LE(local) === LOCAL_HEADER) {
      const dataOffset = local + 30 + view.readUInt16LE(local + 26) + view.readUInt16LE(local + 28)
      records.set(view.toString('utf8', at + 46, nameEnd), { crc: view.readUInt32LE(at + 16), dataOffset })
    }
    at = nameEnd + view.readUInt16LE(at + 30) + view.readUInt16LE(at + 32)
  }
  return records
}

/**
 * The central directory as fflate lists it, with each entry's CRC-32 and data offset; null when
 * fflate cannot list it, or an entry is stored by a method other than store or deflate, encrypted,
 * or ZIP64.
 */
export function zipDirectory(bytes: Uint8Array): Map<string, ZipEntry> | null {
  const listed: Array<Omit<ZipEntry, 'crc' | 'dataOffset'>> = []
  try {
    unzipSync(bytes, {
      filter: ({ name, compression, size, originalSize }) => {
        listed.push({ name, compression, size, originalSize })
        return false
      },
    })
  } catch {
    return null
  }
  const records = centralRecords(bytes)
  const entries = new Map<string, ZipEntry>()
  for (const entry of listed) {
    const record = records.get(entry.name)
    if ((entry.compression !== 0 && entry.compression !== 8) || record === undefined) return null
    if (record.dataOffset + entry.size > bytes.length) return null
    entries.set(entry.name, { ...entry, ...record })
  }
  return entries
}

function packedBytes(bytes: Uint8Array, entry: ZipEntry): Uint8Array {
  return bytes.subarray(entry.dataOffset, entry.dataOffset + entry.size)
}

/**
 * One entry inflated by node:zlib, which counts the real bytes as it produces them and stops at
 * `cap` (maxOutputLength): a lying directory cannot make it produce, or spend time on, more.
 */
function inflateCapped(bytes: Uint8Array, entry: ZipEntry, cap: number, tooLarge: () => ZipTooLarge): Buffer {
  const packed = packedBytes(bytes, entry)
  if (entry.compression === 0) {
    if (packed.length > cap) throw tooLarge()
    return Buffer.from(packed.buffer, packed.byteOffset, packed.byteLength)
  }
  try {
    // maxOutputLength must be at least 1; an entry capped at 0 bytes may still inflate to nothing.
    return inflateRawSync(packed, { maxOutputLength: Math.max(1, cap), chunkSize: 64 * 1024 })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge()
    throw new ZipDamage(`${entry.name} cannot be unpacked (${(error as Error).message})`)
  }
}

/**
 * One entry's content, inflated with a running count of the real bytes that stops at the smallest
 * of: what the directory declares (more is a lie), `maxBytes`, and what is left of the file's
 * `budget` (decision 101); then checked against the declared size and CRC-32. An entry that
 * declares more than maxBytes is refused before anything is inflated.
 */
export function zipEntryBytes(bytes: Uint8Array, entry: ZipEntry, maxBytes: number, budget?: UnpackBudget): Buffer {
  const name = entry.name.slice(0, 120)
  if (entry.originalSize > maxBytes)
    throw new ZipTooLarge(entry.name, `${name} unpacks to ${entry.originalSize} bytes, more than ${maxBytes}`)
  const left = budget?.remaining ?? Number.POSITIVE_INFINITY
  const cap = Math.min(entry.originalSize, left)
  const content = inflateCapped(bytes, entry, cap, () =>
    cap < entry.originalSize
      ? new ZipTooLarge(
          entry.name,
          `${name} would take the workbook past the ${MiB(budget?.limit ?? 0)} a file may unpack to; unpacking was stopped there`,
        )
      : new ZipTooLarge(
          entry.name,
          `${name} unpacks to more than the ${entry.originalSize.toLocaleString('en-US')} bytes its directory declares (its sizes lie); unpacking was stopped there`,
        ),
  )
  budget?.spend(content.length)
  if (content.length !== entry.originalSize || crc32(content) >>> 0 !== entry.crc) {
    throw new ZipDamage(`${name} fails its checksum`)
  }
  return content
}

/** Caps on the real bytes a whole archive's entries may unpack to (decision 101). */
export interface UnpackCaps {
  perEntry: number
  perFile: number
}

/**
 * Inflates every entry, counting the real bytes as they come (node:zlib stops at the cap), and
 * stops at the first that unpacks past what its directory declares, past caps.perEntry, or takes
 * the whole file past caps.perFile (decision 101). Each entry's bytes are let go as soon as they
 * are counted. For a reader that inflates on its own (SheetJS), before it is given the file. A
 * problem is said for a person, naming the entry; null when none.
 */
export function zipRealSizeProblem(
  bytes: Uint8Array,
  directory: Map<string, ZipEntry>,
  caps: UnpackCaps,
): string | null {
  let total = 0
  for (const entry of directory.values()) {
    const name = entry.name.slice(0, 120)
    const cap = Math.min(entry.originalSize, caps.perEntry, caps.perFile - total)
    let produced: number
    try {
      produced = inflateCapped(bytes, entry, cap, () => new ZipTooLarge(entry.name, '')).length
    } catch (error) {
      if (!(error instanceof ZipTooLarge)) return `its part ${name} is damaged and cannot be unpacked`
      if (cap === entry.originalSize)
        return `its part ${name} unpacks to more than the ${entry.originalSize.toLocaleString('en-US')} bytes its directory declares (its sizes lie); unpacking was stopped there`
      if (cap === caps.perEntry)
        return `its part ${name} unpacks to more than ${MiB(caps.perEntry)}; unpacking was stopped there`
      return `its parts unpack to more than ${MiB(caps.perFile)} in all (stopped at ${name})`
    }
    total += produced
  }
  return null
}
