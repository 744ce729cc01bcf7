/**
 * A ZIP of PDFs written to disk as they are made (fflate's streaming `Zip`): each PDF is stored as
 * it is (its streams are compressed already), its bytes go to the file at once, so a run with
 * thousands of paid rows never holds its advices in memory. Written next to the target and renamed
 * into place, so a failure leaves no half archive under the chosen name.
 */
import { randomUUID } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { once } from 'node:events'
import { rename, rm } from 'node:fs/promises'
import { Zip, ZipPassThrough } from 'fflate'

export interface ZipFile {
  name: string
  bytes: Uint8Array
}

/** Writes every file `files` yields into one ZIP at `path`; returns how many went in. */
export async function writeZipStreaming(path: string, files: AsyncIterable<ZipFile>): Promise<number> {
  const temporary = `${path}.${randomUUID()}.partial`
  const out = createWriteStream(temporary, { mode: 0o600 })
  const failed = new Promise<never>((_, reject) => out.once('error', reject))
  failed.catch(() => undefined)
  let pending: Promise<void> = Promise.resolve()
  const zip = new Zip((error, chunk, final) => {
    pending = pending.then(async () => {
      if (error) throw error
      if (!out.write(chunk)) await Promise.race([once(out, 'drain'), failed])
      if (final) out.end()
    })
  })
  let count = 0
  try {
    for await (const file of files) {
      const entry = new ZipPassThrough(file.name)
      zip.add(entry)
      entry.push(file.bytes, true)
      count += 1
      await pending
    }
    zip.end()
    await pending
    await Promise.race([once(out, 'finish'), failed])
    await rename(temporary, path)
    return count
  } catch (error) {
    zip.terminate()
    out.destroy()
    await rm(temporary, { force: true })
    throw error
  }
}
