/** The window placement file, userData/window-state.json: read once at open, saved after changes. */
import { join } from 'node:path'
import { readJsonFile, writeJsonAtomically } from '../services/settings/atomic-json-file'
import { EMPTY_WINDOW_STATE, windowStateSchema } from './window-state'
import type { WindowState } from './window-state'

export const WINDOW_STATE_FILE = 'window-state.json'

export async function readWindowState(userDataDir: string): Promise<WindowState> {
  try {
    return await readJsonFile(join(userDataDir, WINDOW_STATE_FILE), windowStateSchema, EMPTY_WINDOW_STATE)
  } catch {
    // A damaged placement file only costs the remembered position: start centred.
    return EMPTY_WINDOW_STATE
  }
}

export function saveWindowState(userDataDir: string, state: WindowState): Promise<void> {
  return writeJsonAtomically(join(userDataDir, WINDOW_STATE_FILE), state)
}
