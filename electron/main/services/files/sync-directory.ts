/**
 * Makes a folder's entries durable: after a file is created or renamed into it, fsync the folder
 * itself, or a crash can lose the new name even though the file's bytes were synced. The journal,
 * the settings files and the bulk runs all write this way.
 */
import { open } from 'node:fs/promises'

export async function syncDirectory(directory: string): Promise<void> {
  // Windows cannot open a folder for fsync; there a rename is already durable enough.
  if (process.platform === 'win32') return
  const handle = await open(directory, 'r')
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}
