/**
 * Files between the browser and main over the bridge, kept in a private folder of their own:
 * - uploads: a file the person picked or dropped, streamed to disk as it arrives (never one JSON
 *   blob), refused once it passes MAX_OPENED_FILE_BYTES; main reads it by path like any file;
 * - picks: an Open asked by a service becomes a `desktop:chooseFile` event; the browser shows its
 *   file picker and uploads the choice under the pick's id, or cancels it;
 * - saves: a Save asked by a service is written into a fresh folder, and every file that call
 *   left there (a CSV's summary companion too) is offered to the browser as a download, once.
 * Nothing here outlives the bridge: the folder is removed when it closes, and anything left
 * unclaimed is removed after STAGED_FOR_MS.
 */
import { randomBytes } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, dirname, extname, join } from 'node:path'
import { once } from 'node:events'
import type { IncomingMessage } from 'node:http'
import type { OpenDialogRequest } from '../adapters/desktop'
import type { BridgeDownload, DroppedFile } from '../../../shared/ipc/files'
import { BRIDGE_FILES_PATH, MAX_OPENED_FILE_BYTES } from '../../../shared/ipc/files'
import type { EventName, EventPayload } from '../../../shared/ipc/contract'
import type { BridgeCall } from './bridge-call'

/** How long an upload nobody used, or a download nobody fetched, is kept. */
export const STAGED_FOR_MS = 10 * 60 * 1000
/** What is read and dropped of an upload past the limit before the connection is cut. */
const DRAIN_BYTES = 16 * 1024 * 1024
/** How long a picker may stay open before the Open counts as cancelled. */
export const PICK_TIMEOUT_MS = 30 * 60 * 1000

const DOWNLOAD_TYPES: Record<string, string> = {
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.xls': 'application/vnd.ms-excel',
  '.csv': 'text/csv; charset=utf-8',
  '.zip': 'application/zip',
  '.pdf': 'application/pdf',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
}

export type UploadAnswer =
  { ok: true; file: DroppedFile & { bytes: number } } | { ok: false; status: 400 | 404 | 413; message: string }

export interface StagedDownload {
  path: string
  name: string
  type: string
}

export interface BridgeFiles {
  /** Streams one upload to disk; answers for a pick when `pick` is its id. */
  receive(body: IncomingMessage, name: string, declaredBytes: number | null, pick: string | null): Promise<UploadAnswer>
  /** Where an upload is on disk, or undefined when it was never received (or is gone). */
  uploadPath(ref: string): string | undefined
  /** Asks the browser to pick a file; the path of the upload, or null when the person cancelled. */
  pick(request: OpenDialogRequest): Promise<string | null>
  /** The person closed the picker: the Open that asked answers "cancelled". */
  cancelPick(pick: string): boolean
  /** A fresh place for a file the call saves; its folder's files become the call's downloads. */
  stageSave(defaultName: string, call: BridgeCall): Promise<string>
  /**
   * After the call: its downloads (registered for one fetch each), with where each was written in
   * our folder (a path that means nothing to the person); removes the uploads it used.
   */
  finishCall(call: BridgeCall): Promise<Array<BridgeDownload & { writtenTo: string }>>
  /** A download, once: it is forgotten as it is handed out (the caller removes the file after sending it). */
  takeDownload(id: string): StagedDownload | undefined
  close(): Promise<void>
}

/** A file name safe to create in our folder: the last path part, no control characters. */
export function safeFileName(name: string): string {
  const last = name.split(/[\\/]/).pop() ?? ''
  // eslint-disable-next-line no-control-regex
  const cleaned = last.replace(/[\u0000-\u001f\u007f]/g, '').trim()
  if (cleaned === '' || cleaned === '.' || cleaned === '..') return 'file'
  if (cleaned.length <= 200) return cleaned
  const extension = extname(cleaned).slice(0, 20)
  return cleaned.slice(0, 200 - extension.length) + extension
}

const newId = (): string => randomBytes(16).toString('hex')

export function createBridgeFiles(options: {
  emit<E extends EventName>(event: E, payload: EventPayload<E>): void
  /** Whether a browser is listening to events (no picker can open without one). */
  hasListeners(): boolean
  maxBytes?: number
}): BridgeFiles {
  const maxBytes = options.maxBytes ?? MAX_OPENED_FILE_BYTES
  let root: Promise<string> | null = null
  const folder = (): Promise<string> => (root ??= mkdtemp(join(tmpdir(), 'payout-desk-bridge-')))
  const uploads = new Map<string, { path: string; timer: NodeJS.Timeout }>()
  const downloads = new Map<string, StagedDownload & { timer: NodeJS.Timeout }>()
  const picks = new Map<string, { settle(path: string | null): void }>()

  const removeLater = (path: string, forget: () => void): NodeJS.Timeout => {
    const timer = setTimeout(() => {
      forget()
      void rm(path, { recursive: true, force: true })
    }, STAGED_FOR_MS)
    timer.unref()
    return timer
  }

  async function forgetUpload(ref: string): Promise<void> {
    const upload = uploads.get(ref)
    if (!upload) return
    uploads.delete(ref)
    clearTimeout(upload.timer)
    await rm(dirname(upload.path), { recursive: true, force: true })
  }

  return {
    async receive(body, name, declaredBytes, pick) {
      const waiting = pick === null ? null : picks.get(pick)
      if (pick !== null && !waiting) return { ok: false, status: 404, message: 'No Open is waiting for this file.' }
      const tooLarge = `${name} is larger than ${maxBytes / 1024 / 1024} MiB, more than any file this desk opens.`
      if (declaredBytes !== null && declaredBytes > maxBytes) {
        body.resume()
        return { ok: false, status: 413, message: tooLarge }
      }
      const ref = newId()
      const path = join(await folder(), 'uploads', ref, safeFileName(name))
      await mkdir(dirname(path), { recursive: true })
      // Written as it arrives; past the limit the rest is read and dropped (up to DRAIN_BYTES more,
      // then the connection is cut), so the browser gets the answer rather than a reset.
      const file = createWriteStream(path, { flags: 'wx' })
      let received = 0
      let broken = false
      try {
        for await (const chunk of body as AsyncIterable<Buffer>) {
          received += chunk.length
          if (received <= maxBytes) {
            if (!file.write(chunk)) await once(file, 'drain')
          } else if (received > maxBytes + DRAIN_BYTES) {
            body.destroy()
            break
          }
        }
      } catch {
        broken = true
      }
      await new Promise<void>((done) => file.end(() => done()))
      if (broken || received > maxBytes || !body.complete) {
        await rm(dirname(path), { recursive: true, force: true })
        if (received > maxBytes) return { ok: false, status: 413, message: tooLarge }
        return { ok: false, status: 400, message: `${name} did not arrive whole; try again.` }
      }
      uploads.set(ref, { path, timer: removeLater(dirname(path), () => uploads.delete(ref)) })
      if (pick !== null) {
        picks.delete(pick)
        waiting?.settle(path)
      }
      return { ok: true, file: { name, ref, bytes: received } }
    },

    uploadPath: (ref) => uploads.get(ref)?.path,

    pick(request) {
      // No tab listens: nobody could answer, so the Open is cancelled rather than left waiting.
      if (!options.hasListeners()) return Promise.resolve(null)
      const id = newId()
      return new Promise<string | null>((resolve) => {
        const timer = setTimeout(() => settle(null), PICK_TIMEOUT_MS)
        timer.unref()
        function settle(path: string | null): void {
          clearTimeout(timer)
          picks.delete(id)
          resolve(path)
        }
        picks.set(id, { settle })
        options.emit('desktop:chooseFile', {
          pick: id,
          title: request.title,
          accept: request.filters.flatMap((filter) => filter.extensions.map((extension) => `.${extension}`)),
        })
      })
    },

    cancelPick(pick) {
      const waiting = picks.get(pick)
      if (!waiting) return false
      picks.delete(pick)
      waiting.settle(null)
      return true
    },

    async stageSave(defaultName, call) {
      const saveFolder = join(await folder(), 'saves', newId())
      await mkdir(saveFolder, { recursive: true })
      call.saveFolders.push(saveFolder)
      return join(saveFolder, safeFileName(defaultName))
    },

    async finishCall(call) {
      await Promise.all(
        call.usedUploads.map((path) => {
          const entry = [...uploads].find(([, upload]) => upload.path === path)
          return entry ? forgetUpload(entry[0]) : Promise.resolve()
        }),
      )
      const offered: Array<BridgeDownload & { writtenTo: string }> = []
      for (const saveFolder of call.saveFolders) {
        // A write that failed leaves nothing, or a ".partial" the writer did not get to remove.
        const names = (await readdir(saveFolder).catch(() => [] as string[])).filter((n) => !n.endsWith('.partial'))
        if (names.length === 0) await rm(saveFolder, { recursive: true, force: true })
        for (const name of names.sort()) {
          const id = newId()
          const path = join(saveFolder, name)
          const type = DOWNLOAD_TYPES[extname(name).toLowerCase()] ?? 'application/octet-stream'
          downloads.set(id, { path, name, type, timer: removeLater(path, () => downloads.delete(id)) })
          offered.push({ url: `${BRIDGE_FILES_PATH}/${id}`, name, type, writtenTo: path })
        }
      }
      return offered
    },

    takeDownload(id) {
      const download = downloads.get(id)
      if (!download) return undefined
      downloads.delete(id)
      clearTimeout(download.timer)
      return { path: download.path, name: download.name, type: download.type }
    },

    async close() {
      for (const pick of [...picks.values()]) pick.settle(null)
      for (const { timer } of [...uploads.values(), ...downloads.values()]) clearTimeout(timer)
      uploads.clear()
      downloads.clear()
      if (root) await rm(await root, { recursive: true, force: true })
    },
  }
}

/** The name a download is offered under, for Content-Disposition (RFC 6266 / 5987). */
export function contentDisposition(name: string): string {
  const ascii = basename(name).replace(/[^\x20-\x7e]|["\\]/g, '_')
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(basename(name))}`
}

/**
 * The answer as the person should read it: where a service says it saved a file (its path in our
 * private folder), the browser's downloads instead. Only strings equal to such a path change.
 */
export function withDownloadsNamed(value: unknown, saved: ReadonlyMap<string, string>): unknown {
  if (saved.size === 0) return value
  if (typeof value === 'string') {
    const name = saved.get(value)
    return name === undefined ? value : `your browser's downloads (${name})`
  }
  if (Array.isArray(value)) return value.map((item) => withDownloadsNamed(item, saved))
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withDownloadsNamed(item, saved)]))
  }
  return value
}
