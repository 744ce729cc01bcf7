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
