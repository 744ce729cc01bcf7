/**
 * Electron IPC transport: registers one ipcMain handler per contract channel, all going through the
 * router, and sends contract events to the main window. The sender policy admits only the main
 * frame of our own window showing our own page (see sender-policy.ts).
 */
import type { BrowserWindow, IpcMain, IpcMainInvokeEvent } from 'electron'
import { channelNames } from '../../../shared/ipc/contract'
import type { EventName, EventPayload } from '../../../shared/ipc/contract'
import type { IpcRouter, Sender } from './router'

export function senderOf(event: IpcMainInvokeEvent): Sender {
  const frame = event.senderFrame
  return {
    transport: 'electron',
    webContentsId: event.sender.id,
    frameUrl: frame?.url ?? '',
    isMainFrame: frame !== null && frame === event.sender.mainFrame,
  }
}

/** One ipcMain.handle per channel of the contract, nothing else (no ipcMain.on, no generic channel). */
export function registerIpc(ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>, router: IpcRouter): () => void {
  for (const channel of channelNames) {
    ipcMain.handle(channel, (event, payload: unknown) => router.handle(channel, payload, senderOf(event)))
  }
  return () => {
    for (const channel of channelNames) ipcMain.removeHandler(channel)
  }
}

export function sendEvent<E extends EventName>(window: BrowserWindow | null, event: E, payload: EventPayload<E>): void {
  if (window && !window.isDestroyed()) window.webContents.send(event, payload)
}
