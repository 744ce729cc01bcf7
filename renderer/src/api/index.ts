/**
 * The typed window API: the only renderer code that touches `window` to reach main. Stores use
 * `api` (and `stageDroppedFile` for a file the person drops); components never call them directly.
 */
import type { WindowApi } from '../../../shared/ipc/contract'
import type { DroppedFile, WindowFiles } from '../../../shared/ipc/files'
import { WINDOW_FILES_KEY } from '../../../shared/ipc/files'
// Not from the contract: that would bring zod into the renderer (see window-api.ts).
import { WINDOW_API_KEY } from '../../../shared/ipc/window-api'
import type { Result } from '../../../shared/result'
import { createBridgeTransport } from './bridge-client'

interface Transport {
  api: WindowApi
  stageDroppedFile(file: File): Promise<Result<DroppedFile>>
}

/** In the installed app a dropped file is read where it is: the preload gives it a reference. */
function preloadFiles(files: WindowFiles): Transport['stageDroppedFile'] {
  return async (file) => {
    const ref = files.refFor(file)
    return ref === null
      ? {
          ok: false,
          error: {
            code: 'bad_request',
            message: `${file.name} is not a file on this computer; drop it from a folder.`,
          },
        }
      : { ok: true, data: { name: file.name, ref } }
  }
}

function resolveTransport(): Transport {
  const globals = window as unknown as Record<string, unknown>
  const fromPreload = globals[WINDOW_API_KEY] as WindowApi | undefined
  const files = globals[WINDOW_FILES_KEY] as WindowFiles | undefined
  if (fromPreload && files) return { api: fromPreload, stageDroppedFile: preloadFiles(files) }
  const fromBridge = createBridgeTransport()
  if (fromBridge) return fromBridge
  throw new Error('Payout Desk must be opened by the desktop app (no preload API and no bridge token found).')
}

const transport = resolveTransport()

export const api: WindowApi = transport.api
/** Hands a dropped file over to main: never its bytes through IPC (see shared/ipc/files.ts). */
export const stageDroppedFile = transport.stageDroppedFile
export { onTransfer } from './transfers'
export type { TransferProgress } from './transfers'
export type { WindowApi }
