// `npm start`: builds and opens the desktop app. When the Electron binary was never downloaded
// (npm install without network, a proxy, a blocked mirror), says so in ONE line with the fix and
// the browser alternative, and exits non-zero, instead of electron's own download attempt and stack.
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')

/** The executable's path inside electron's dist folder, as the electron package names it per platform. */
function defaultRelativePath(platform) {
  if (platform === 'darwin') return 'Electron.app/Contents/MacOS/Electron'
  if (platform === 'win32') return 'electron.exe'
  return 'electron'
}

/**
 * Where the Electron binary is, or null when it is missing. Found the way the electron package
 * itself finds it (path.txt, dist/, ELECTRON_OVERRIDE_DIST_PATH) but without require('electron'),
 * which would start a download and throw.
 */
export function findElectronBinary(packageDir, env = process.env, platform = process.platform) {
  if (!existsSync(join(packageDir, 'package.json'))) return null
  const pathFile = join(packageDir, 'path.txt')
  const relative = (existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : '') || defaultRelativePath(platform)
  const override = env['ELECTRON_OVERRIDE_DIST_PATH']
  const binary = override ? join(override, relative) : join(packageDir, 'dist', relative)
  return existsSync(binary) ? binary : null
}

export const MISSING_ELECTRON_MESSAGE =
  'Payout Desk cannot start: the Electron binary is not installed (node_modules/electron/dist is missing, ' +
  'its download failed). Retry the download with `node node_modules/electron/install.js` (or `npx electron --version`), ' +
  'setting ELECTRON_MIRROR=<mirror URL> if the default host is blocked; meanwhile `npm run bridge` opens the same app in a browser.'

function run(args) {
  const result = spawnSync(process.execPath, [join(root, 'node_modules/electron-vite/bin/electron-vite.js'), ...args], {
    cwd: root,
    stdio: 'inherit',
  })
  return result.status ?? 1
}

export function main(packageDir = join(root, 'node_modules/electron')) {
  if (!findElectronBinary(packageDir)) {
    console.error(MISSING_ELECTRON_MESSAGE)
    return 1
  }
  const built = run(['build'])
  return built === 0 ? run(['preview']) : built
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  // The package folder can be overridden, so the message can be tested against a fake install.
  process.exitCode = main(process.env['PAYOUT_DESK_ELECTRON_PACKAGE'] ?? undefined)
}
