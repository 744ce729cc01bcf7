/**
 * The ZIP container of an XLSX, written and read with node:zlib (native deflate; the streaming
 * compressor runs on libuv's thread pool, so main keeps answering while a big sheet is packed).
 *
 * Writing: each entry's content comes as chunks (strings or bytes); they are CRC-32'd and deflated
 * as they come, so a sheet is never held whole, only its compressed bytes. No ZIP64: an entry or
 * an archive past 4 GiB is refused (no export of ours comes near).
 *
 * Reading: the central directory says where each entry is; an entry is inflated only when asked
 * for, bounded to the size the directory declares, and its CRC-32 is checked. A directory this
 * reader does not understand (ZIP64, encryption, a method other than store or deflate) is
 * `null`, so the caller can hand the file to a more general reader.
 */
import { once } from 'node:events'
import { constants, crc32, createDeflateRaw, deflateRawSync, inflateRawSync } from 'node:zlib'

/** An entry: small text deflated in one go, or content that comes in chunks, deflated as it comes. */
export type ZipSource = { name: string; text: string } | { name: string; chunks: Iterable<string | Uint8Array> }

const LOCAL_HEADER = 0x04034b50
const CENTRAL_HEADER = 0x02014b50
const END_OF_DIRECTORY = 0x06054b50
const MAX_32 = 0xffffffff
/** 1980-01-01 00:00 in MS-DOS form: a fixed stamp keeps the bytes of an export reproducible. */
const DOS_TIME = 0
const DOS_DATE = (0 << 9) | (1 << 5) | 1

interface Written {
  name: Buffer
  crc: number
  compressed: number
  size: number
  offset: number
}

function localHeader(entry: Omit<Written, 'offset'>): Buffer {
  const header = Buffer.alloc(30)
  header.writeUInt32LE(LOCAL_HEADER, 0)
  header.writeUInt16LE(20, 4) // version needed: 2.0 (deflate)
  header.writeUInt16LE(0x0800, 6) // names are UTF-8
  header.writeUInt16LE(8, 8) // deflate
  header.writeUInt16LE(DOS_TIME, 10)
  header.writeUInt16LE(DOS_DATE, 12)
  header.writeUInt32LE(entry.crc >>> 0, 14)
  header.writeUInt32LE(entry.compressed, 18)
  header.writeUInt32LE(entry.size, 22)
  header.writeUInt16LE(entry.name.length, 26)
  header.writeUInt16LE(0, 28)
  return Buffer.concat([header, entry.name])
}

function centralHeader(entry: Written): Buffer {
  const header = Buffer.alloc(46)
  header.writeUInt32LE(CENTRAL_HEADER, 0)
  header.writeUInt16LE(20, 4) // made by: 2.0, MS-DOS attributes
  header.writeUInt16LE(20, 6)
  header.writeUInt16LE(0x0800, 8)
  header.writeUInt16LE(8, 10)
  header.writeUInt16LE(DOS_TIME, 12)
  header.writeUInt16LE(DOS_DATE, 14)
  header.writeUInt32LE(entry.crc >>> 0, 16)
  header.writeUInt32LE(entry.compressed, 20)
  header.writeUInt32LE(entry.size, 24)
  header.writeUInt16LE(entry.name.length, 28)
  // extra, comment, disk, internal and external attributes: 0
  header.writeUInt32LE(entry.offset, 42)
  return Buffer.concat([header, entry.name])
}

function tooLarge(name: string): Error {
  return new Error(`${name} is larger than 4 GiB, more than an XLSX without ZIP64 can hold`)
}

/** Deflates one entry's chunks as they come; resolves with its compressed parts, size and CRC-32. */
async function deflateEntry(
  source: { name: string; chunks: Iterable<string | Uint8Array> },
  level: number,
): Promise<{ parts: Buffer[]; crc: number; size: number; compressed: number }> {
  const deflate = createDeflateRaw({ level, chunkSize: 64 * 1024 })
  const parts: Buffer[] = []
  let compressed = 0
  deflate.on('data', (part: Buffer) => {
    parts.push(part)
    compressed += part.length
  })
  const ended = once(deflate, 'end')
  ended.catch(() => undefined) // awaited below; this only keeps an early failure from going unhandled
  let crc = 0
  let size = 0
  try {
    for (const chunk of source.chunks) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk
      if (bytes.length === 0) continue
      crc = crc32(bytes, crc)
      size += bytes.length
      if (size > MAX_32) throw tooLarge(source.name)
      // Waiting for the compressor between chunks is also where main gets to serve other work.
      if (!deflate.write(bytes)) await once(deflate, 'drain')
    }
    deflate.end()
    await ended
  } catch (error) {
    // A cell that fails its check stops the export: drop the compressor, nothing is written.
    deflate.destroy()
    throw error
  }
  if (compressed > MAX_32) throw tooLarge(source.name)
  return { parts, crc, size, compressed }
}

/**
 * A ZIP of the sources, in order, as the list of buffers to write (compressed content only is held).
 * Small entries are deflated in one go; the rest stream through the thread-pool compressor.
 */
export async function zipEntries(sources: readonly ZipSource[], level = 1): Promise<Buffer[]> {
  const out: Buffer[] = []
  const written: Written[] = []
  let offset = 0
  for (const source of sources) {
    const name = Buffer.from(source.name, 'utf8')
    let entry: { parts: Buffer[]; crc: number; size: number; compressed: number }
    if ('text' in source) {
      const bytes = Buffer.from(source.text, 'utf8')
      const data = deflateRawSync(bytes, { level: constants.Z_DEFAULT_COMPRESSION })
      entry = { parts: [data], crc: crc32(bytes), size: bytes.length, compressed: data.length }
    } else {
      entry = await deflateEntry(source, level)
    }
    const header = localHeader({ name, crc: entry.crc, compressed: entry.compressed, size: entry.size })
    written.push({ name, crc: entry.crc, compressed: entry.compressed, size: entry.size, offset })
    out.push(header, ...entry.parts)
    offset += header.length + entry.compressed
    if (offset > MAX_32) throw tooLarge('the archive')
  }
  const directoryStart = offset
  for (const entry of written) {
    const header = centralHeader(entry)
    out.push(header)
    offset += header.length
  }
  const end = Buffer.alloc(22)
  end.writeUInt32LE(END_OF_DIRECTORY, 0)
  end.writeUInt16LE(written.length, 8)
  end.writeUInt16LE(written.length, 10)
  end.writeUInt32LE(offset - directoryStart, 12)
  end.writeUInt32LE(directoryStart, 16)
  out.push(end)
  return out
}

// ---------- reading ----------

export interface ZipEntry {
  name: string
  method: number
  crc: number
  compressed: number
  size: number
  offset: number
}

/** A problem with an entry that the directory promised: the file is damaged. */
export class ZipDamage extends Error {
  override name = 'ZipDamage'
}

/** The central directory, or null when it is missing or uses what this reader does not handle. */
export function zipDirectory(bytes: Uint8Array): Map<string, ZipEntry> | null {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const lowest = Math.max(0, view.length - 22 - 0xffff)
  let end = -1
  for (let at = view.length - 22; at >= lowest; at--) {
    if (view.readUInt32LE(at) === END_OF_DIRECTORY) {
      end = at
      break
    }
  }
  if (end < 0) return null
  const count = view.readUInt16LE(end + 10)
  const size = view.readUInt32LE(end + 12)
  const start = view.readUInt32LE(end + 16)
  if (count === 0xffff || start === MAX_32 || start + size > end) return null
  const entries = new Map<string, ZipEntry>()
  let at = start
  for (let n = 0; n < count; n++) {
    if (at + 46 > end || view.readUInt32LE(at) !== CENTRAL_HEADER) return null
    const flags = view.readUInt16LE(at + 8)
    const method = view.readUInt16LE(at + 10)
    const nameLength = view.readUInt16LE(at + 28)
    const extraLength = view.readUInt16LE(at + 30)
    const commentLength = view.readUInt16LE(at + 32)
    const entry: ZipEntry = {
      name: view.toString('utf8', at + 46, at + 46 + nameLength),
      method,
      crc: view.readUInt32LE(at + 16),
      compressed: view.readUInt32LE(at + 20),
      size: view.readUInt32LE(at + 24),
      offset: view.readUInt32LE(at + 42),
    }
    // Encrypted, or ZIP64 sizes: not for this reader.
    if (flags & 0x0001 || entry.compressed === MAX_32 || entry.size === MAX_32 || entry.offset === MAX_32) return null
    if (method !== 0 && method !== 8) return null
    entries.set(entry.name, entry)
    at += 46 + nameLength + extraLength + commentLength
  }
  return entries
}

/**
 * One entry's content, inflated and checked against the directory's size and CRC-32. Refuses
 * (ZipDamage) an entry that declares more than maxBytes rather than inflating it.
 */
export function zipEntryBytes(bytes: Uint8Array, entry: ZipEntry, maxBytes: number): Buffer {
  if (entry.size > maxBytes) {
    throw new ZipDamage(`${entry.name} unpacks to ${entry.size} bytes, more than ${maxBytes}`)
  }
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (entry.offset + 30 > view.length || view.readUInt32LE(entry.offset) !== LOCAL_HEADER) {
    throw new ZipDamage(`${entry.name} is not where the archive's directory says`)
  }
  const dataStart = entry.offset + 30 + view.readUInt16LE(entry.offset + 26) + view.readUInt16LE(entry.offset + 28)
  if (dataStart + entry.compressed > view.length) throw new ZipDamage(`${entry.name} is cut short`)
  const data = view.subarray(dataStart, dataStart + entry.compressed)
  let content: Buffer
  if (entry.method === 0) content = data
  else {
    try {
      // Never more than the directory declares: a lying size cannot make this allocate more.
      // One output buffer of the declared size (plus a byte to see the end): no chunks to join.
      content = inflateRawSync(data, {
        maxOutputLength: Math.max(entry.size, 1),
        chunkSize: Math.max(entry.size + 1, 64),
      })
    } catch (error) {
      throw new ZipDamage(`${entry.name} cannot be unpacked (${(error as Error).message})`)
    }
  }
  if (content.length !== entry.size || crc32(content) >>> 0 !== entry.crc >>> 0) {
    throw new ZipDamage(`${entry.name} fails its checksum`)
  }
  return content
}
