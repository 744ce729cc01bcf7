/**
 * The ZIP container of an XLSX, by fflate (decision 17, docs/decisions/).
 *
 * Writing: fflate's streaming `Zip` lays out the archive (local headers, data descriptors, central
 * directory); each entry is a `NativeDeflateEntry`, an fflate `ZipInputFile` whose content is
 * deflated by node:zlib's native compressor on libuv's thread pool, so main keeps answering while a
 * big sheet is packed. Content comes as chunks and is CRC-32'd and deflated as it comes: a sheet is
 * never held whole, only its compressed bytes. No ZIP64: past 4 GiB is refused.
 *
 * Reading: fflate's `unzipSync` lists the central directory and inflates only the entry asked for,
 * into a buffer of the size the directory declares (so a lying size cannot make it allocate more).
 * fflate does not check CRC-32s, nor report them, so `storedCrcs` reads them from the directory and
 * `zipEntryBytes` checks them. An archive fflate cannot list, or with a method other than store or
 * deflate, is `null`, so the caller can hand the file to a more general reader.
 */
import { once } from 'node:events'
import { constants, crc32, createDeflateRaw } from 'node:zlib'
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

const END_OF_DIRECTORY = 0x06054b50
const CENTRAL_HEADER = 0x02014b50

/**
 * The CRC-32 of each unencrypted entry, from the central directory: the one field fflate reads past.
 * Runs on a directory fflate has already listed; a ZIP64 or encrypted entry is left out.
 */
function storedCrcs(bytes: Uint8Array): Map<string, number> {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const crcs = new Map<string, number>()
  let end = view.length - 22
  while (end >= 0 && view.readUInt32LE(end) !== END_OF_DIRECTORY) end--
  if (end < 0) return crcs
  const count = view.readUInt16LE(end + 10)
  let at = view.readUInt32LE(end + 16)
  for (let n = 0; n < count && at + 46 <= end && view.readUInt32LE(at) === CENTRAL_HEADER; n++) {
    const nameEnd = at + 46 + view.readUInt16LE(at + 28)
    const encrypted = (view.readUInt16LE(at + 8) & 0x0001) !== 0
    if (!encrypted) crcs.set(view.toString('utf8', at + 46, nameEnd), view.readUInt32LE(at + 16))
    at = nameEnd + view.readUInt16LE(at + 30) + view.readUInt16LE(at + 32)
  }
  return crcs
}

/**
 * The central directory as fflate lists it, with each entry's CRC-32; null when fflate cannot list
 * it, or an entry is stored by a method other than store or deflate, encrypted, or ZIP64.
 */
export function zipDirectory(bytes: Uint8Array): Map<string, ZipEntry> | null {
  const listed: Array<Omit<ZipEntry, 'crc'>> = []
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
  const crcs = storedCrcs(bytes)
  const entries = new Map<string, ZipEntry>()
  for (const entry of listed) {
    const crc = crcs.get(entry.name)
    if ((entry.compression !== 0 && entry.compression !== 8) || crc === undefined) return null
    entries.set(entry.name, { ...entry, crc })
  }
  return entries
}

/**
 * One entry's content, inflated by fflate into a buffer of the size the directory declares, and
 * checked against that size and CRC-32. Refuses (ZipDamage) an entry that declares more than
 * maxBytes rather than inflating it.
 */
export function zipEntryBytes(bytes: Uint8Array, entry: ZipEntry, maxBytes: number): Buffer {
  const tooBig = (size: number): ZipDamage =>
    new ZipDamage(`${entry.name} unpacks to ${size} bytes, more than ${maxBytes}`)
  if (entry.originalSize > maxBytes) throw tooBig(entry.originalSize)
  let content: Uint8Array | undefined
  try {
    content = unzipSync(bytes, {
      filter: (file) => {
        if (file.name !== entry.name) return false
        if (file.originalSize > maxBytes) throw tooBig(file.originalSize) // a second entry of that name
        return true
      },
    })[entry.name]
  } catch (error) {
    if (error instanceof ZipDamage) throw error
    throw new ZipDamage(`${entry.name} cannot be unpacked (${(error as Error).message})`)
  }
  if (!content || content.length !== entry.originalSize || crc32(content) >>> 0 !== entry.crc) {
    throw new ZipDamage(`${entry.name} fails its checksum`)
  }
  return Buffer.from(content.buffer, content.byteOffset, content.byteLength)
}
