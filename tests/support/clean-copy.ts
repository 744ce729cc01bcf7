/**
 * A copy of this project as a fresh clone has it, for tests of the first commands a newcomer runs
 * (`npm start`, `npm run package`): every file git tracks (and new files not ignored), nothing
 * built (no out/, no dist/). node_modules is the installed one, linked package by package, except
 * the packages a test copies because the command writes into them: electron (copied without its
 * dist/ and path.txt, as npm ci leaves it: Electron 45 downloads its binary on first use) and any
 * other named package. With `hardLinkedPackages`, every other package is hard-linked file by file
 * instead (copied where the temporary folder is on another file system), for electron-builder:
 * it collects the app's dependencies by their real paths, and would otherwise reach into the
 * project's own node_modules (and refuse it, when that is under /tmp). Nothing in the project's own
 * node_modules is ever written: the packages a command writes into are copied.
 *
 * The copy is made outside the unit run's scan root (it holds the test keys of tests/scan, which the
 * final scan would report) and removed by `remove()`.
 */
import { execFileSync } from 'node:child_process'
import {
  copyFileSync,
  cpSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, join, resolve } from 'node:path'

export const PROJECT_ROOT = resolve(__dirname, '../..')

export interface CleanCopy {
  dir: string
  remove(): void
}

function link(target: string, path: string): void {
  // A junction needs no privilege on Windows; elsewhere the type is ignored.
  symlinkSync(target, path, process.platform === 'win32' ? 'junction' : 'dir')
}

function installedPackages(nodeModules: string): string[] {
  return readdirSync(nodeModules).flatMap((name) =>
    name.startsWith('@') ? readdirSync(join(nodeModules, name)).map((inner) => `${name}/${inner}`) : [name],
  )
}

/** The top-level packages package-lock.json marks as needed at run time (not dev-only). */
export function productionPackages(root = PROJECT_ROOT): string[] {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { dev?: boolean; devOptional?: boolean }>
  }
  const names = Object.entries(lock.packages)
    .filter(([path, entry]) => path.startsWith('node_modules/') && !entry.dev && !entry.devOptional)
    .map(([path]) => path.slice('node_modules/'.length))
    .filter((name) => !name.includes('/node_modules/'))
  return [...new Set(names)].sort()
}

/** A folder's tree with every file hard-linked (or copied across file systems), links kept as links. */
function hardLinkTree(from: string, to: string): void {
  mkdirSync(to, { recursive: true })
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = join(from, entry.name)
    const target = join(to, entry.name)
    if (entry.isSymbolicLink()) symlinkSync(readlinkSync(source), target)
    else if (entry.isDirectory()) hardLinkTree(source, target)
    else {
      try {
        linkSync(source, target)
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error
        copyFileSync(source, target)
      }
    }
  }
}

export function cleanCopyOfProject(options: { copyPackages?: string[]; hardLinkedPackages?: boolean } = {}): CleanCopy {
  const parent = process.env['PAYOUT_DESK_REAL_TMPDIR'] ?? tmpdir()
  const dir = join(mkdtempSync(join(parent, 'payout-desk-fresh-')), 'payout-desk')
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: PROJECT_ROOT,
    maxBuffer: 64 * 1024 * 1024,
  })
    .toString()
    .split('\0')
    .filter(Boolean)
  for (const file of files) {
    mkdirSync(dirname(join(dir, file)), { recursive: true })
    // A file deleted in the working tree but not yet in the index is left out, as in a commit.
    try {
      cpSync(join(PROJECT_ROOT, file), join(dir, file))
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    }
  }

  const copied = new Set(['electron', ...(options.copyPackages ?? [])])
  const source = join(PROJECT_ROOT, 'node_modules')
  const target = join(dir, 'node_modules')
  mkdirSync(target)
  for (const name of installedPackages(source)) {
    mkdirSync(dirname(join(target, name)), { recursive: true })
    if (!copied.has(name) && statSync(join(source, name)).isDirectory()) {
      if (options.hardLinkedPackages) hardLinkTree(join(source, name), join(target, name))
      else link(join(source, name), join(target, name))
      continue
    }
    const from = join(source, name)
    cpSync(from, join(target, name), {
      recursive: true,
      // As npm ci leaves Electron 45: no binary, no path.txt (its installer writes both).
      filter: (path) => name !== 'electron' || !['dist', 'path.txt'].includes(relativeTop(from, path)),
    })
  }
  return { dir, remove: () => rmSync(dirname(dir), { recursive: true, force: true }) }
}

/** The first segment of `path` below `root`. */
function relativeTop(root: string, path: string): string {
  const rest = path.slice(root.length).replace(/^[\\/]+/, '')
  return rest.split(/[\\/]/)[0] ?? basename(path)
}
