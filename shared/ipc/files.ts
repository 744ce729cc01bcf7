/**
 * Files between the renderer and main, without zod (the renderer imports this). A file the person
 * drops or picks never crosses IPC as bytes: the renderer hands over a reference main reads it by.
 * In the installed app that is the file's own path on disk (the preload's webUtils.getPathForFile);
 * in the browser (`npm run bridge`) it is the id of an upload the bridge has streamed to a private
 * folder (POST BRIDGE_FILES_PATH). Saves and copies in the browser come back as effects of the call
 * that made them: files to download, text for the browser's clipboard.
 */

/** A dropped file as the renderer hands it over: its name (for messages) and where main reads it. */
export interface DroppedFile {
  name: string
  /** Electron: the absolute path of the file; the bridge: the id of its upload. */
  ref: string
}

/** The largest file a person can hand over: above any sheet, export or document the readers take. */
export const MAX_OPENED_FILE_BYTES = 72 * 1024 * 1024

/** The bridge's file endpoint: uploads (POST), downloads (GET /files/<id>), a cancelled pick. */
export const BRIDGE_FILES_PATH = '/files'
export const BRIDGE_FILES_CANCEL_PATH = '/files/cancel'
/** Upload headers: the file's name (URI-encoded) and, for a file chosen for an Open, the pick id. */
export const BRIDGE_FILE_NAME_HEADER = 'x-file-name'
export const BRIDGE_PICK_HEADER = 'x-pick'

/** A file main saved during a bridge call, for the browser to download. */
export interface BridgeDownload {
  /** Where the browser fetches it (with the bridge token). */
  url: string
  name: string
  type: string
}

/** What a bridge call asks of the browser besides its answer. Absent when nothing. */
export interface BridgeEffects {
  downloads?: BridgeDownload[]
  /** Text for the browser's clipboard. */
  clipboard?: string
}

/** The key of the preload's file helper on `window` (Electron only). */
export const WINDOW_FILES_KEY = 'payoutDeskFiles'

/**
 * The preload's file helper. The page never sees a path: it gets an opaque reference for a File
 * the person dropped, and the preload puts the file's path in its place when the call leaves for
 * main. A reference the preload did not issue is refused there, so a page cannot make main read a
 * path of its choosing.
 */
export interface WindowFiles {
  /** null when the File is not backed by a file on disk (made by a script). */
  refFor(file: File): string | null
}

/** Where each channel that takes a dropped file carries it in its input. */
export const DROPPED_FILE_CHANNELS: Readonly<Record<string, (input: unknown) => unknown>> = {
  'bulk:drop': (input) => (input as { file?: unknown } | undefined)?.file,
  'history:openDropped': (input) => input,
  'cards:dropIdentityFile': (input) => input,
}

export type DroppedPathSwap =
  { ok: true; input: unknown } | { ok: false; error: { code: 'bad_request'; message: string } }

/**
 * The preload's step before a call leaves: on a channel that takes a dropped file, the reference
 * it issued is replaced by the file's path (and forgotten); any other reference is refused.
 * Other channels pass unchanged.
 */
export function swapDroppedPath(channel: string, input: unknown, issued: Map<string, string>): DroppedPathSwap {
  const fileOf = DROPPED_FILE_CHANNELS[channel]
  if (!fileOf) return { ok: true, input }
  const file = fileOf(input)
  const ref = typeof file === 'object' && file !== null ? (file as { ref?: unknown }).ref : undefined
  const path = typeof ref === 'string' ? issued.get(ref) : undefined
  if (path === undefined) {
    return {
      ok: false,
      error: { code: 'bad_request', message: 'That file was not dropped in this window; drop it again.' },
    }
  }
  issued.delete(ref as string)
  const withPath = { ...(file as object), ref: path }
  return { ok: true, input: channel === 'bulk:drop' ? { ...(input as object), file: withPath } : withPath }
}
