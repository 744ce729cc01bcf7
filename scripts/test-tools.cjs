// Where the tools the tests drive are, on Linux, macOS and Windows (decision 69): the Chromium
// Playwright runs the renderer in, and the PostgreSQL the team tests start a server of. The
// preflight (scripts/preflight.mjs), playwright.config.ts and tests/support/postgres.ts all ask
// here, so what the preflight accepts is what the tests use.
// CommonJS, so that playwright.config.ts (loaded by Playwright as CommonJS) can require it too.
'use strict'
const { execFileSync } = require('node:child_process')
const { existsSync, readdirSync } = require('node:fs')
const { delimiter, join } = require('node:path')

const DEBIAN_CHROMIUM = '/usr/bin/chromium'
// Debian's chromium-headless-shell package: Chromium's headless shell, the build Playwright itself
// runs headless tests in. The full browser's headless mode also draws the browser's own WebUI and
// keeps a spare renderer per window: the same e2e tests took a third less CPU in the shell (decision 134).
const DEBIAN_HEADLESS_SHELL = '/usr/bin/chromium-headless-shell'
const MINIMUM_POSTGRES = 15

/** Where Playwright keeps its own Chromium (`npx playwright install chromium`), installed or not. */
function playwrightChromium() {
  try {
    return require('playwright-core').chromium.executablePath()
  } catch {
    return null
  }
}

/**
 * The Chromium the e2e tests drive: PAYOUT_DESK_CHROMIUM when it is set, else Debian's headless
 * shell (chromium-headless-shell) or its full chromium package where there is one, else
 * Playwright's own. { path, source }, or null when none is
 * installed (or PAYOUT_DESK_CHROMIUM names nothing).
 */
function findChromium({
  env = process.env,
  platform = process.platform,
  exists = existsSync,
  playwright = playwrightChromium,
} = {}) {
  const given = env['PAYOUT_DESK_CHROMIUM']
  if (given) return exists(given) ? { path: given, source: 'PAYOUT_DESK_CHROMIUM' } : null
  if (platform === 'linux' && exists(DEBIAN_HEADLESS_SHELL)) return { path: DEBIAN_HEADLESS_SHELL, source: 'debian' }
  if (platform === 'linux' && exists(DEBIAN_CHROMIUM)) return { path: DEBIAN_CHROMIUM, source: 'debian' }
  const own = playwright()
  return own && exists(own) ? { path: own, source: 'playwright' } : null
}

/** A program's file name on this platform. */
function executable(name, platform = process.platform) {
  return platform === 'win32' ? `${name}.exe` : name
}

/** The folder on PATH that holds `name`, or null: the shell's lookup, the same on every OS. */
function onPath(name, { env = process.env, platform = process.platform, exists = existsSync } = {}) {
  const path = env['PATH'] ?? env['Path'] ?? ''
  // Windows looks for name.exe, name.cmd ... (its file names are not case-sensitive).
  const extensions =
    platform === 'win32' ? ['', ...(env['PATHEXT'] ?? '.EXE;.CMD;.BAT').toLowerCase().split(';')] : ['']
  for (const folder of path.split(platform === 'win32' ? ';' : delimiter).filter(Boolean)) {
    if (extensions.some((extension) => exists(join(folder, `${name}${extension}`)))) return folder
  }
  return null
}

function listed(folder, exists) {
  try {
    return exists(folder) ? readdirSync(folder) : []
  } catch {
    return []
  }
}

/**
 * Folders where each OS's usual PostgreSQL packages put initdb without putting it on PATH, newest
 * major version first: Debian and Ubuntu (/usr/lib/postgresql/<major>/bin), Homebrew's keg-only
 * postgresql@<major>, Postgres.app, and the Windows installer (Program Files\PostgreSQL\<major>\bin).
 */
function usualPostgresFolders({
  env = process.env,
  platform = process.platform,
  exists = existsSync,
  list = listed,
} = {}) {
  const byVersion = (entries) =>
    entries
      .map(([version, folder]) => [Number(version), folder])
      .filter(([version]) => Number.isFinite(version))
      .sort((a, b) => b[0] - a[0])
      .map(([, folder]) => folder)
  if (platform === 'linux') {
    return byVersion(list('/usr/lib/postgresql', exists).map((v) => [v, join('/usr/lib/postgresql', v, 'bin')]))
  }
  if (platform === 'darwin') {
    const homebrew = ['/opt/homebrew/opt', '/usr/local/opt'].flatMap((opt) =>
      list(opt, exists)
        .map((entry) => /^postgresql@(\d+)$/.exec(entry))
        .filter(Boolean)
        .map((match) => [match[1], join(opt, match[0], 'bin')]),
    )
    return [...byVersion(homebrew), '/Applications/Postgres.app/Contents/Versions/latest/bin']
  }
  if (platform === 'win32') {
    const programFiles = env['ProgramFiles'] ?? 'C:\\Program Files'
    const root = join(programFiles, 'PostgreSQL')
    return byVersion(list(root, exists).map((v) => [v, join(root, v, 'bin')]))
  }
  return []
}

/** The major version `initdb --version` reports ("initdb (PostgreSQL) 16.4"), or null. */
function initdbMajorVersion(initdb) {
  try {
    const text = execFileSync(initdb, ['--version'], { encoding: 'utf8', timeout: 10_000 })
    const match = /\(PostgreSQL\)\s+(\d+)/.exec(text)
    return match ? Number(match[1]) : null
  } catch {
    return null
  }
}

/**
 * The folder with PostgreSQL's initdb and pg_ctl (15 or later) for the team tests' own server:
 * PAYOUT_DESK_PG_BIN when set (and nothing else), else the first on PATH, else the usual install
 * folders of this OS. { bin, version }, or null.
 */
function findPostgres({
  env = process.env,
  platform = process.platform,
  exists = existsSync,
  list = listed,
  majorVersion = initdbMajorVersion,
} = {}) {
  const usable = (folder) => {
    if (!folder) return null
    const initdb = join(folder, executable('initdb', platform))
    if (!exists(initdb) || !exists(join(folder, executable('pg_ctl', platform)))) return null
    const version = majorVersion(initdb)
    return version !== null && version >= MINIMUM_POSTGRES ? { bin: folder, version } : null
  }
  const given = env['PAYOUT_DESK_PG_BIN']
  if (given) return usable(given)
  const candidates = [
    onPath('initdb', { env, platform, exists }),
    ...usualPostgresFolders({ env, platform, exists, list }),
  ]
  for (const folder of candidates) {
    const found = usable(folder)
    if (found) return found
  }
  return null
}

/**
 * What to give Playwright's launch as executablePath: the Chromium found, or undefined for
 * Playwright's own (it picks its headless build itself) or when none is installed (Playwright then
 * names the command to install it; the preflight says so first).
 */
function chromiumExecutablePath(options = {}) {
  const found = findChromium(options)
  return found && found.source !== 'playwright' ? found.path : undefined
}

module.exports = {
  DEBIAN_CHROMIUM,
  DEBIAN_HEADLESS_SHELL,
  MINIMUM_POSTGRES,
  playwrightChromium,
  findChromium,
  executable,
  onPath,
  usualPostgresFolders,
  initdbMajorVersion,
  findPostgres,
  chromiumExecutablePath,
}
