// `npm start`: builds the app (unless the build in out/ is current) and opens it in Electron. `npm run dev` (`--dev`): electron-vite's
// development server, with the renderer reloading on save. Both first make sure the Electron binary
// is installed: on a fresh clone it is not (Electron 45 downloads it on first use), so Electron's own
// installer runs, showing its download (scripts/electron-binary.mjs, decision 66). Anything that
// stops the start is one line on stderr and exit code 1, never a stack trace.
import { spawnSync } from 'node:child_process'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildNeeded } from './build-state.mjs'
import { electronVersion, findElectronBinary, installElectron, installFailureLine } from './electron-binary.mjs'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')

/**
 * Why this Node.js cannot run the app's tools, or null. Below 20.19, Electron's installer (an ES
 * module loaded with require) and vite 7 do not run at all; 22.12 is what they declare (decision 68).
 */
export function nodeVersionProblem(version = process.versions.node) {
  const [major, minor] = version.split('.').map(Number)
  if (major > 20 || (major === 20 && minor >= 19)) return null
  return `Payout Desk needs Node.js 22.12 or later (this is Node.js ${version}): install it from https://nodejs.org, then run \`npm ci\`.`
}

/** What the app is built from, and what its build writes (decision 67, as `npm run bridge` checks it). */
export const APP_SOURCES = [
  'electron',
  'renderer',
  'shared',
  'electron.vite.config.ts',
  'tsconfig.json',
  'package-lock.json',
]
export const APP_OUTPUTS = ['out/main/index.js', 'out/preload/index.js', 'out/renderer/index.html']

/** Why `npm start` must build before it opens the app, or null when every output is newer than every source. */
export function appBuildNeeded(folder = root) {
  for (const output of APP_OUTPUTS) {
    const reason = buildNeeded(folder, output, APP_SOURCES)
    if (reason) return reason
  }
  return null
}

function electronVite(args, env) {
  const result = spawnSync(process.execPath, [join(root, 'node_modules/electron-vite/bin/electron-vite.js'), ...args], {
    cwd: root,
    env,
    stdio: 'inherit',
  })
  return result.status ?? 1
}

/** The Electron binary, installed first when missing; or the one line that says why not. */
export async function ensureElectron(retryCommand, packageDir = join(root, 'node_modules/electron')) {
  const version = electronVersion(packageDir)
  if (!version) {
    return { problem: 'Payout Desk cannot start: Electron is not in node_modules: run `npm ci` first.' }
  }
  const found = findElectronBinary(packageDir)
  if (found) return { binary: found }
  console.log(
    `Electron ${version} is not installed yet: running its installer (node node_modules/electron/install.js).`,
  )
  const installed = await installElectron({ packageDir })
  if (!installed.ok) return { problem: installFailureLine(installed.failure, retryCommand) }
  const binary = findElectronBinary(packageDir)
  if (!binary) {
    return {
      problem: `Payout Desk cannot start: Electron's installer finished, but there is no Electron binary in ${relative(root, join(packageDir, 'dist'))}. Retry with \`${retryCommand}\`.`,
    }
  }
  console.log(
    installed.downloaded
      ? `Electron ${version} is installed.`
      : `Electron ${version} is installed from Electron's download cache.`,
  )
  return { binary }
}

export async function main(args = process.argv.slice(2)) {
  const dev = args.includes('--dev')
  const nodeProblem = nodeVersionProblem()
  if (nodeProblem) {
    console.error(nodeProblem)
    return 1
  }
  const electron = await ensureElectron(dev ? 'npm run dev' : 'npm start')
  if (electron.problem) {
    console.error(electron.problem)
    return 1
  }
  // electron-vite would look for the binary itself (without ELECTRON_OVERRIDE_DIST_PATH): it is told.
  const env = { ...process.env, ELECTRON_EXEC_PATH: electron.binary }
  if (dev) return electronVite(['dev'], env)
  // `preview` builds main, preload and renderer, then opens the built app; a build that is current
  // is opened as it is (a second start takes seconds, not a build's half minute).
  const reason = appBuildNeeded()
  if (reason) {
    console.log(`Building the app first (${reason}).`)
    return electronVite(['preview'], env)
  }
  console.log('Opening the app as built in out/ (nothing changed since it was built).')
  return electronVite(['preview', '--skipBuild'], env)
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main()
}
