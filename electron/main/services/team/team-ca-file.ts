/**
 * The team's CA certificate file (decision 106): chosen by the person in main's own open dialog
 * (never a path from the renderer), and read only as a regular file of at most CA_FILE_MAX_BYTES,
 * within CA_FILE_TIMEOUT_MS. It is opened non-blocking and checked on the open handle, so a FIFO,
 * a device or a socket is refused without waiting on it, and a file swapped after the check is
 * still the one read. The errors say what is wrong with the file chosen, by its name only.
 */
import { constants } from 'node:fs'
import { open } from 'node:fs/promises'
import { basename } from 'node:path'
import { AppFailure } from '../../../../shared/result'
import type { FileDialogs } from '../../adapters/desktop'

/** A CA bundle is a few KiB; 256 KiB holds any real one (the system's whole bundle is about 220 KiB). */
export const CA_FILE_MAX_BYTES = 256 * 1024
export const CA_FILE_TIMEOUT_MS = 5_000

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/

export interface CaFileLimits {
  maxBytes?: number
  timeoutMs?: number
  /**
   * The path as a person typed it on a command line (team:migrate --ca): errors name it whole, as
   * given, and say nothing of choosing it again. The desk's errors name the chosen file only.
   */
  typed?: boolean
}

function refuser(path: string, typed: boolean): (what: string) => AppFailure {
  return (what) => new AppFailure('bad_request', `The team's CA file ${typed ? path : basename(path)} ${what}`)
}

/** The PEM text of a CA file, or an AppFailure that says what is wrong with it. */
export async function readCaFile(path: string, limits: CaFileLimits = {}): Promise<string> {
  const refused = refuser(path, limits.typed ?? false)
  const maxBytes = limits.maxBytes ?? CA_FILE_MAX_BYTES
  const timeoutMs = limits.timeoutMs ?? CA_FILE_TIMEOUT_MS
  let timer: NodeJS.Timeout | undefined
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(refused(`could not be read within ${timeoutMs / 1000} s.`)), timeoutMs)
  })
  try {
    return await Promise.race([readBounded(path, maxBytes, refused, limits.typed ?? false), timedOut])
  } finally {
    clearTimeout(timer)
  }
}

async function readBounded(
  path: string,
  maxBytes: number,
  refused: (what: string) => AppFailure,
  typed: boolean,
): Promise<string> {
  let handle
  try {
    // O_NONBLOCK: opening a FIFO with no writer returns at once instead of waiting for one.
    handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0))
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    throw refused(
      code === 'ENOENT'
        ? typed
          ? 'cannot be read: there is no such file.'
          : 'is no longer there: choose it again.'
        : code === 'EACCES' || code === 'EPERM'
          ? 'cannot be read by this desk (permission denied).'
          : `cannot be read (${code ?? 'error'}).`,
    )
  }
  try {
    const info = await handle.stat()
    if (!info.isFile()) throw refused('is not a regular file (a pipe, device or folder): choose the .pem file.')
    if (info.size > maxBytes)
      throw refused(`is larger than ${Math.round(maxBytes / 1024)} KiB, more than any CA certificate.`)
    const buffer = Buffer.alloc(maxBytes + 1)
    let length = 0
    while (length <= maxBytes) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length)
      if (bytesRead === 0) break
      length += bytesRead
    }
    if (length > maxBytes)
      throw refused(`is larger than ${Math.round(maxBytes / 1024)} KiB, more than any CA certificate.`)
    const text = buffer.subarray(0, length).toString('utf8')
    if (!PEM_CERTIFICATE.test(text))
      throw refused('holds no PEM certificate (-----BEGIN CERTIFICATE-----): choose the CA file in PEM form.')
    return text
  } finally {
    await handle.close()
  }
}

/** Asks the person for the CA file in main's own dialog and checks it; null when they cancelled. */
export async function chooseCaFile(dialogs: FileDialogs): Promise<string | null> {
  const path = await dialogs.chooseOpenPath({
    title: "The team database's CA certificate",
    filters: [
      { name: 'CA certificate (PEM)', extensions: ['pem', 'crt', 'cer'] },
      { name: 'All files', extensions: ['*'] },
    ],
  })
  if (path === null) return null
  await readCaFile(path)
  return path
}
