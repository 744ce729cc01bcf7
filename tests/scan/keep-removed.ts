/**
 * Makes "every file a test wrote" scannable even when the test cleans up after itself: while a
 * scan root is set, removing a folder or file under it moves it into `<root>/removed/` instead, so
 * the final scan sees it. Installed in every test process (vitest's setup file, the Playwright
 * fixture). Only `rm` and `rmSync` are wrapped (what tests clean up with); paths outside the root
 * are removed as before.
 */
import fs from 'node:fs'
import { syncBuiltinESMExports } from 'node:module'
import { basename, join, relative, resolve, sep } from 'node:path'

export const SCAN_ROOT_ENV = 'PAYOUT_DESK_SCAN_ROOT'

let installed = false
let counter = 0

function underRoot(root: string, path: fs.PathLike): boolean {
  const target = resolve(String(path))
  const rel = relative(root, target)
  return rel !== '' && !rel.startsWith('..') && !rel.startsWith(`removed${sep}`) && rel !== 'removed'
}

function keptPath(root: string, path: fs.PathLike): string {
  return join(root, 'removed', `${process.pid}-${++counter}-${basename(String(path))}`)
}

export function keepRemovedFiles(root = process.env[SCAN_ROOT_ENV]): void {
  if (!root || installed) return
  installed = true
  const scanRoot = resolve(root)
  fs.mkdirSync(join(scanRoot, 'removed'), { recursive: true })
  const realRm = fs.promises.rm
  const realRmSync = fs.rmSync
  fs.promises.rm = async (path, options) => {
    if (!underRoot(scanRoot, path)) return realRm(path, options)
    try {
      await fs.promises.rename(path, keptPath(scanRoot, path))
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' && options?.force) return
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw error
      return realRm(path, options)
    }
  }
  fs.rmSync = (path, options) => {
    if (!underRoot(scanRoot, path)) return realRmSync(path, options)
    try {
      fs.renameSync(path, keptPath(scanRoot, path))
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' && options?.force) return
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw error
      realRmSync(path, options)
    }
  }
  // `import { rm } from 'node:fs/promises'` sees the wrapped function from now on.
  syncBuiltinESMExports()
}
