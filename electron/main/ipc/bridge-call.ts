/**
 * One bridge call as the browser surface sees it: what the services asked of the desktop while
 * they answered it (files saved for the browser to download, text for the browser's clipboard,
 * uploads to remove once the call is over). The services do not know which call they serve; the
 * bridge desktop finds it through AsyncLocalStorage, which follows the call through every await.
 */
import { AsyncLocalStorage } from 'node:async_hooks'

export interface BridgeCall {
  /** Folders a save was staged in (one per save): their files are offered as downloads. */
  saveFolders: string[]
  /** Text the call put on the clipboard (the last one wins, as on a real clipboard). */
  clipboard?: string
  /** Uploads this call read: removed once it is answered. */
  usedUploads: string[]
}

const current = new AsyncLocalStorage<BridgeCall>()

export async function runBridgeCall<T>(work: () => Promise<T>): Promise<{ value: T; call: BridgeCall }> {
  const call: BridgeCall = { saveFolders: [], usedUploads: [] }
  const value = await current.run(call, work)
  return { value, call }
}

/** The call being answered, or undefined outside one (a timer, start-up). */
export function currentBridgeCall(): BridgeCall | undefined {
  return current.getStore()
}
