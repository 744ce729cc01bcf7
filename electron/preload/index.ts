/**
 * Builds the narrow window API from the IPC contract: one named function per channel and one
 * subscriber per event. The renderer never sees ipcRenderer, a generic invoke, or Electron events.
 */
import { contextBridge, ipcRenderer } from 'electron'
import type { IpcRendererEvent } from 'electron'
import { buildWindowApi, WINDOW_API_KEY } from '../../shared/ipc/contract'
import type { Result } from '../../shared/result'

const api = buildWindowApi(
  (channel, input) => ipcRenderer.invoke(channel, input) as Promise<Result<unknown>>,
  (event, listener) => {
    const forward = (_event: IpcRendererEvent, payload: unknown): void => listener(payload)
    ipcRenderer.on(event, forward)
    return () => {
      ipcRenderer.removeListener(event, forward)
    }
  },
)

contextBridge.exposeInMainWorld(WINDOW_API_KEY, api)
