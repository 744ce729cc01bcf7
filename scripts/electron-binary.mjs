// The Electron binary of this checkout, for the commands that open the desktop app (`npm start`,
// `npm run dev`). Electron 45's npm package has no install script: its binary is downloaded the
// first time it is asked for, by node_modules/electron/install.js (@electron/get, honouring
// ELECTRON_MIRROR, electron_config_cache and the checksums Electron ships). This module runs that
// installer when the binary is missing, shows the download as it happens, and turns a failure into
// one line that says what failed: the host tried and the error, never a stack, and never a download
// that was not tried (decision 66).
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const REPORT_HOOK = join(dirname(fileURLToPath(import.meta.url)), 'electron-download-report.cjs')

/** The executable's path inside Electron's dist folder, as install.js names it per platform. */
export function defaultRelativePath(platform) {
  if (platform === 'darwin' || platform === 'mas') return 'Electron.app/Contents/MacOS/Electron'
  if (platform === 'win32') return 'electron.exe'
  return 'electron'
}

/** The version of the installed electron package, or null when there is none (npm ci not run). */
export function electronVersion(packageDir) {
  try {
    return JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')).version ?? null
  } catch {
    return null
  }
}

/**
 * Where the Electron binary is, or null when it is missing. Found the way the electron package
 * finds it (path.txt, dist/, ELECTRON_OVERRIDE_DIST_PATH) without require('electron'), which would
 * run the installer with its output and throw.
 */
export function findElectronBinary(packageDir, env = process.env, platform = process.platform) {
  if (!electronVersion(packageDir)) return null
  const pathFile = join(packageDir, 'path.txt')
  const relative = (existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : '') || defaultRelativePath(platform)
  const override = env['ELECTRON_OVERRIDE_DIST_PATH']
  const binary = override ? join(override, relative) : join(packageDir, 'dist', relative)
  return existsSync(binary) ? binary : null
}

export function hostOf(url) {
  try {
    return new URL(url).host
  } catch {
    return String(url)
  }
}

function fileOf(url) {
  try {
    return decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '')
  } catch {
    return String(url)
  }
}

/** Electron's own zip, as opposed to the SHASUMS256.txt it is checked against. */
const isArchive = (url) => fileOf(url).endsWith('.zip')

function readReport(file) {
  if (!existsSync(file)) return []
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .flatMap((line) => {
      try {
        return [JSON.parse(line)]
      } catch {
        return []
      }
    })
}

/** Bytes of the archive written so far: @electron/get downloads into <tmp>/electron-download-*. */
function bytesDownloaded(tmp) {
  let total = 0
  for (const folder of existsSync(tmp) ? readdirSync(tmp) : []) {
    if (!folder.startsWith('electron-download-')) continue
    try {
      for (const file of readdirSync(join(tmp, folder)))
        if (file.endsWith('.zip')) total += statSync(join(tmp, folder, file)).size
    } catch {
      // Moved to the cache or removed between the listing and the stat: nothing more to count.
    }
  }
  return total
}

const megabytes = (bytes) => `${(bytes / 1_000_000).toFixed(1)} MB`

/**
 * What the download looks like to a person: a line when the archive's request leaves, then its
 * progress (rewritten in place on a terminal, every quarter in a log).
 */
export function downloadDisplay(out) {
  let announced = false
  let shownInPlace = false
  let quarter = 0
  return {
    update(events, bytes) {
      const request = events.find((event) => event.event === 'request' && isArchive(event.url))
      if (!request) return
      if (!announced) {
        out.write(`Downloading ${fileOf(request.url)} from ${hostOf(request.url)}\n`)
        announced = true
      }
      const total = events.find((event) => event.event === 'response' && event.url === request.url)?.length
      if (!bytes) return
      if (out.isTTY) {
        const share = total ? ` of ${megabytes(total)} (${Math.min(100, Math.floor((bytes / total) * 100))}%)` : ''
        out.write(`\r  ${megabytes(bytes)}${share}   `)
        shownInPlace = true
      } else if (total) {
        // Every quarter passed since the last look, so a log shows each one.
        const reached = Math.min(3, Math.floor((bytes / total) * 4))
        while (quarter < reached) {
          quarter += 1
          out.write(`  ${quarter * 25}% of ${megabytes(total)}\n`)
        }
      }
    },
    end() {
      if (shownInPlace) out.write('\n')
    },
  }
}

/**
 * The error install.js printed, in one line: the first line of its stack (install.js prints
 * err.stack), or of Node's report of an uncaught exception (file:line, source, caret, then the
 * error), without Node's warnings.
 */
export function firstErrorLine(stderr) {
  const lines = stderr
    .split(/\r?\n/)
    .map((text) => text.trim())
    .filter((text) => text && !text.startsWith('(node:') && !text.startsWith('(Use `node') && !/^at\s/.test(text))
  const line = lines.find((text) => /^[A-Za-z]*Error\b( \[[A-Z_0-9]+\])?:/.test(text)) ?? lines[0]
  return (line ?? 'it exited without saying why')
    .replace(/^Error: /, '')
    .replace(/\.$/, '')
    .slice(0, 300)
}

/**
 * What failed, from what the installer reported doing: a request that never got an answer, an
 * answer that was an error, a download that did not check out, or a failure before any download.
 * Returns the sentence and whether a download was really tried (only then does a mirror help).
 */
export function describeInstallFailure({ version, events, stderr }) {
  const failed = events.find((event) => event.event === 'failed')
  if (failed) {
    return {
      downloadTried: true,
      host: hostOf(failed.url),
      problem: `Electron ${version} could not be downloaded from ${hostOf(failed.url)} (${failed.cause}).`,
    }
  }
  const refused = events.find((event) => event.event === 'response' && event.status >= 400)
  if (refused) {
    const answer = `${refused.status}${refused.statusText ? ` ${refused.statusText}` : ''}`
    return {
      downloadTried: true,
      host: hostOf(refused.url),
      problem: `Electron ${version} could not be downloaded from ${hostOf(refused.url)} (it answered ${answer} for ${fileOf(refused.url)}).`,
    }
  }
  const error = firstErrorLine(stderr)
  const fetched = events.filter((event) => event.event === 'response')
  if (fetched.length === 0) {
    return {
      downloadTried: false,
      host: null,
      problem: `Electron's installer stopped before downloading anything (${error}).`,
    }
  }
  const archive = fetched.find((event) => isArchive(event.url)) ?? fetched[0]
  const host = hostOf(archive.url)
  if (/checksum/i.test(error)) {
    return {
      downloadTried: true,
      host,
      problem: `Electron ${version} was downloaded from ${host} but does not match its published checksum (${error}).`,
    }
  }
  return {
    downloadTried: true,
    host,
    problem: `Electron ${version} was downloaded from ${host}, then its installer failed (${error}).`,
  }
}

/** The one line `npm start` prints when the binary could not be installed: what failed, then what to do. */
export function installFailureLine(failure, retryCommand) {
  const mirror = failure.downloadTried
    ? `, with ELECTRON_MIRROR=https://<mirror>/electron/ if ${failure.host} is blocked from here`
    : ''
  return (
    `Payout Desk cannot start: ${failure.problem} Retry with \`${retryCommand}\`${mirror};` +
    ' meanwhile `npm run bridge` opens the same app in a browser.'
  )
}

/**
 * Runs node_modules/electron/install.js as Electron ships it, watched by
 * electron-download-report.cjs. Resolves { ok: true, downloaded } or { ok: false, failure }.
 */
export async function installElectron({ packageDir, env = process.env, out = process.stdout }) {
  const version = electronVersion(packageDir)
  const scratch = mkdtempSync(join(tmpdir(), 'payout-desk-electron-install-'))
  const reportFile = join(scratch, 'report.jsonl')
  // The installer's own temporary folder, so the archive's growth can be shown while it downloads.
  const childTmp = join(scratch, 'tmp')
  mkdirSync(childTmp)
  const display = downloadDisplay(out)
  try {
    const child = spawn(process.execPath, ['--require', REPORT_HOOK, join(packageDir, 'install.js')], {
      cwd: packageDir,
      env: { ...env, PAYOUT_DESK_DOWNLOAD_REPORT: reportFile, TMPDIR: childTmp, TMP: childTmp, TEMP: childTmp },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    child.stderr.on('data', (chunk) => (stderr += chunk))
    const watch = setInterval(() => display.update(readReport(reportFile), bytesDownloaded(childTmp)), 250)
    const code = await new Promise((resolve) => {
      child.on('error', (error) => {
        stderr += `${error.message}\n`
        resolve(1)
      })
      child.on('close', (status) => resolve(status ?? 1))
    })
    clearInterval(watch)
    const events = readReport(reportFile)
    display.update(events, 0)
    display.end()
    if (code === 0) {
      // Anything the installer said on success (a deprecation notice) is passed on as it was.
      if (output.trim()) out.write(output)
      if (stderr.trim()) process.stderr.write(stderr)
      return { ok: true, downloaded: events.some((event) => event.event === 'request' && isArchive(event.url)) }
    }
    return { ok: false, failure: describeInstallFailure({ version, events, stderr: `${stderr}\n${output}` }) }
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }
}
