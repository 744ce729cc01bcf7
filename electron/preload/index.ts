/**
 * Builds the narrow window API from the IPC contract: one named function per channel and one
 * subscriber per event. The renderer never sees ipcRenderer, a generic invoke, or Electron events.
 *
 * Beside it, one file helper (shared/ipc/files.ts): a dropped File gets an opaque reference; when
 * the drop's call leaves for main, the preload puts the file's path (webUtils.getPathForFile) in
 * its place, so main reads the file where it is instead of receiving its bytes through IPC, and
 * the page neither sees a path nor can make main read one of its choosing.
 */
import { contextBridge, ipcRenderer, webUtils } from 'electron'
import type { IpcRendererEvent } from 'electron'
import { buildWindowApi, WINDOW_API_KEY } from '../../shared/ipc/contract'
import { swapDroppedPath } from '../../shared/ipc/dropped-paths'
import { WINDOW_FILES_KEY } from '../../shared/ipc/files'
import type { WindowFiles } from '../../shared/ipc/files'
import type { Result } from '../../shared/result'

/** References this window issued for dropped files, each used once. */
const droppedPaths = new Map<string, string>()

const api = buildWindowApi(
  (channel, input) => {
    const swapped = swapDroppedPath(channel, input, droppedPaths)
    if (!swapped.ok) return Promise.resolve(swapped)
    return ipcRenderer.invoke(channel, swapped.input) as Promise<Result<unknown>>
  },
  (event, listener) => {
    const forward = (_event: IpcRendererEvent, payload: unknown): void => listener(payload)
    ipcRenderer.on(event, forward)
    return () => {
      ipcRenderer.removeListener(event, forward)
    }
  },
)

const files: WindowFiles = {
  refFor(file) {
    const path = webUtils.getPathForFile(file)
    if (!path) return null
    const ref = `dropped-${crypto.randomUUID()}`
    droppedPaths.set(ref, path)
    return ref
  },
}

contextBridge.exposeInMainWorld(WINDOW_API_KEY, api)
contextBridge.exposeInMainWorld(WINDOW_FILES_KEY, files)
