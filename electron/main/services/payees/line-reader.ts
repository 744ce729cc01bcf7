/**
 * Reads a file of lines as bytes, a quarter megabyte at a time: each complete line is handed over
 * as text, and the answer says up to which byte the file was read through its last line break, so
 * a reader can carry on from there later (the payee book's snapshot, decision 116). A line is split
 * on its line-break byte only, so no character is ever cut in two.
 */
import { createReadStream } from 'node:fs'
import { mkdir, open } from 'node:fs/promises'
import { join } from 'node:path'

const CHUNK_BYTES = 256 * 1024

export interface LinesRead {
  /** Complete lines handed over. */
  lines: number
  /** The byte after the last line break read (where a later read starts). */
  through: number
  /** The text after the last line break (a torn last line), when there is any. */
  rest: string
}

/**
 * Hands every complete line of `file` from byte `start` (up to byte `end`, exclusive, when given)
 * to `take`; awaits `pause` between chunks when given. A missing file reads as empty.
 */
export async function readLines(
  file: string,
  take: (line: string) => void,
  options: { start?: number; end?: number; pause?: () => Promise<void> } = {},
): Promise<LinesRead> {
  const start = options.start ?? 0
  const read: LinesRead = { lines: 0, through: start, rest: '' }
  if (options.end !== undefined && options.end <= start) return read
  const stream = createReadStream(file, {
    start,
    ...(options.end !== undefined ? { end: options.end - 1 } : {}),
    highWaterMark: CHUNK_BYTES,
  })
  let carry: Buffer = Buffer.alloc(0)
  let position = start
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      const bytes = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk
      const base = position - carry.length
      let from = 0
      let end = bytes.indexOf(0x0a, from)
      while (end !== -1) {
        if (end > from) take(bytes.toString('utf8', from, end))
        read.lines += 1
        from = end + 1
        end = bytes.indexOf(0x0a, from)
      }
      read.through = base + from
      carry = bytes.subarray(from)
      position += chunk.length
      if (options.pause) await options.pause()
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return read
    throw error
  }
  read.rest = carry.toString('utf8')
  return read
}

/**
 * Appends lines to a file of lines and fsyncs them (the ledger, the confirmations). A torn last line
 * (a crash mid-write) is closed first, so it stays one unreadable line and the new lines are read.
 */
export async function appendLines(file: string, lines: readonly string[]): Promise<void> {
  if (lines.length === 0) return
  await mkdir(join(file, '..'), { recursive: true })
  const handle = await open(file, 'a+', 0o600)
  try {
    const { size } = await handle.stat()
    let torn = false
    if (size > 0) {
      const last = Buffer.alloc(1)
      await handle.read(last, 0, 1, size - 1)
      torn = last[0] !== 0x0a
    }
    const text = lines.map((line) => `${line}\n`).join('')
    await handle.writeFile(torn ? `\n${text}` : text, 'utf8')
    await handle.sync()
  } finally {
    await handle.close()
  }
}
