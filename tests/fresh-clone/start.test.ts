/**
 * `npm start` and `npm run dev` on a fresh clone, the way the real thing works but without the
 * internet (decision 66): a copy of the project whose node_modules/electron has no binary, as npm ci
 * leaves Electron 45, and a loopback mirror of Electron's releases (tests/support/electron-mirror.ts)
 * that ELECTRON_MIRROR points at, with the mirror's own checksums (electron_use_remote_checksums) and
 * a download cache of the test's own (electron_config_cache). Electron's installer downloads the
 * mirror's zip, checks it against the mirror's SHASUMS256.txt and extracts it; the zip's stand-in
 * executable records the folder and arguments it was started with.
 *
 * The stand-in is a shell script, so these run on Linux and macOS; on Windows the executable would
 * have to be a real .exe (skipped there, with the reason).
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { nodeVersionProblem } from '../../scripts/start.mjs'
import { PROJECT_ROOT, cleanCopyOfProject } from '../support/clean-copy'
import type { CleanCopy } from '../support/clean-copy'
import {
  STANDIN_RECORD_ENV,
  electronVersionIn,
  executablePathInZip,
  startElectronMirror,
} from '../support/electron-mirror'
import type { ElectronMirror, MirrorAnswer } from '../support/electron-mirror'
import { npmCommand, runCommand } from '../support/run-command'

const scratch = () => mkdtempSync(join(process.env['PAYOUT_DESK_REAL_TMPDIR'] ?? tmpdir(), 'payout-desk-start-'))

async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer()
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      server.close(() => resolve(port))
    })
  })
}

function expectOneLine(stderr: string): string {
  const lines = stderr.trim().split('\n')
  expect(lines, stderr).toHaveLength(1)
  expect(stderr).not.toMatch(/\n\s+at /)
  return lines[0]!
}

describe('Node.js version', () => {
  it('refuses the Node.js versions the installer and vite cannot run on, naming the version needed', () => {
    expect(nodeVersionProblem('18.20.4')).toBe(
      'Payout Desk needs Node.js 22.12 or later (this is Node.js 18.20.4): install it from https://nodejs.org, then run `npm ci`.',
    )
    expect(nodeVersionProblem('20.18.1')).toContain('22.12 or later')
    expect(nodeVersionProblem('20.19.0')).toBeNull()
    expect(nodeVersionProblem('22.12.0')).toBeNull()
    expect(nodeVersionProblem('24.1.0')).toBeNull()
  })
})

describe.skipIf(process.platform === 'win32')(
  'npm start on a fresh clone (Electron fetched from a test mirror)',
  () => {
    let copy: CleanCopy
    let version: string
    const mirrors: ElectronMirror[] = []
    const folders: string[] = []
    const worktreeElectron = join(PROJECT_ROOT, 'node_modules/electron')
    const worktreeHad = {
      dist: existsSync(join(worktreeElectron, 'dist')),
      pathTxt: existsSync(join(worktreeElectron, 'path.txt')),
    }

    beforeAll(() => {
      copy = cleanCopyOfProject()
      version = electronVersionIn(copy.dir)
    }, 120_000)

    afterAll(async () => {
      for (const mirror of mirrors) await mirror.close()
      copy?.remove()
      for (const folder of folders) rmSync(folder, { recursive: true, force: true })
      // The project's own Electron package is never touched.
      expect(existsSync(join(worktreeElectron, 'dist'))).toBe(worktreeHad.dist)
      expect(existsSync(join(worktreeElectron, 'path.txt'))).toBe(worktreeHad.pathTxt)
    })

    async function mirror(answer: MirrorAnswer): Promise<ElectronMirror> {
      const started = await startElectronMirror({ version, answer })
      mirrors.push(started)
      return started
    }

    function folder(): string {
      const made = scratch()
      folders.push(made)
      return made
    }

    /** A download cache and a stand-in record of the test's own, and the mirror in ELECTRON_MIRROR. */
    function environment(mirrorUrl: string, cache: string, record: string): NodeJS.ProcessEnv {
      return {
        ...process.env,
        ELECTRON_MIRROR: mirrorUrl,
        electron_use_remote_checksums: '1',
        electron_config_cache: cache,
        [STANDIN_RECORD_ENV]: record,
      }
    }

    const npm = (script: string, env: NodeJS.ProcessEnv) =>
      runCommand([...npmCommand(), 'run', '--silent', script], { cwd: copy.dir, env })

    const binary = () => join(copy.dir, 'node_modules/electron/dist', executablePathInZip(process.platform))
    const built = () => join(copy.dir, 'out/main/index.js')

    function expectNothingInstalledOrBuilt(): void {
      expect(existsSync(binary())).toBe(false)
      expect(existsSync(join(copy.dir, 'node_modules/electron/path.txt'))).toBe(false)
      expect(existsSync(built())).toBe(false)
    }

    it('a mirror answering 404: one line naming the mirror and its answer, a retry, ELECTRON_MIRROR and the bridge', async () => {
      const notFound = await mirror('not-found')
      const outcome = await npm('start', environment(notFound.url, folder(), join(folder(), 'record')))
      expect(outcome.code).toBe(1)
      const line = expectOneLine(outcome.stderr)
      expect(line).toBe(
        `Payout Desk cannot start: Electron ${version} could not be downloaded from ${notFound.host} (it answered 404 Not Found for ${notFound.zipName}).` +
          ` Retry with \`npm start\`, with ELECTRON_MIRROR=https://<mirror>/electron/ if ${notFound.host} is blocked from here;` +
          ' meanwhile `npm run bridge` opens the same app in a browser.',
      )
      expect(outcome.stdout).toContain(`Downloading ${notFound.zipName} from ${notFound.host}`)
      expect(notFound.requests).toEqual([`/v${version}/${notFound.zipName}`])
      expectNothingInstalledOrBuilt()
    }, 120_000)

    it('a zip that does not match the mirror checksum: one line saying so, and nothing installed', async () => {
      const tampered = await mirror('wrong-checksum')
      const outcome = await npm('start', environment(tampered.url, folder(), join(folder(), 'record')))
      expect(outcome.code).toBe(1)
      const line = expectOneLine(outcome.stderr)
      expect(line).toContain(
        `Payout Desk cannot start: Electron ${version} was downloaded from ${tampered.host} but does not match its published checksum (Generated checksum for "${tampered.zipName}" did not match expected checksum).`,
      )
      expect(line).toContain('ELECTRON_MIRROR')
      expect(tampered.requests).toEqual([`/v${version}/${tampered.zipName}`, `/v${version}/SHASUMS256.txt`])
      expectNothingInstalledOrBuilt()
    }, 120_000)

    it('a mirror that cannot be reached: one line naming the host and the refused connection', async () => {
      const port = await closedPort()
      const outcome = await npm('start', environment(`http://127.0.0.1:${port}/`, folder(), join(folder(), 'record')))
      expect(outcome.code).toBe(1)
      expect(expectOneLine(outcome.stderr)).toContain(
        `could not be downloaded from 127.0.0.1:${port} (connect ECONNREFUSED 127.0.0.1:${port})`,
      )
      expectNothingInstalledOrBuilt()
    }, 120_000)

    it('a host that cannot be resolved, as on a machine offline: one line naming the host and the DNS error', async () => {
      // .invalid never resolves (RFC 6761); no request leaves this machine.
      const outcome = await npm(
        'start',
        environment('http://electron-mirror.invalid/', folder(), join(folder(), 'record')),
      )
      expect(outcome.code).toBe(1)
      expect(expectOneLine(outcome.stderr)).toMatch(
        /^Payout Desk cannot start: Electron [\d.]+ could not be downloaded from electron-mirror\.invalid \(getaddrinfo (ENOTFOUND|EAI_AGAIN) electron-mirror\.invalid\)\. Retry with `npm start`, with ELECTRON_MIRROR=/,
      )
      expectNothingInstalledOrBuilt()
    }, 120_000)

    it('an installer that stops before any download never says that a download failed', async () => {
      const untouched = await mirror('release')
      const outcome = await npm('start', {
        ...environment(untouched.url, folder(), join(folder(), 'record')),
        // install.js refuses a platform Electron is not built for before it asks for anything.
        ELECTRON_INSTALL_PLATFORM: 'plan9',
      })
      expect(outcome.code).toBe(1)
      const line = expectOneLine(outcome.stderr)
      expect(line).toBe(
        "Payout Desk cannot start: Electron's installer stopped before downloading anything (Electron builds are not available on platform: plan9)." +
          ' Retry with `npm start`; meanwhile `npm run bridge` opens the same app in a browser.',
      )
      expect(outcome.stdout).not.toContain('Downloading')
      expect(untouched.requests).toEqual([])
      expectNothingInstalledOrBuilt()
    }, 120_000)

    describe('with a mirror that serves the release', () => {
      let release: ElectronMirror
      let cache: string
      let record: string

      beforeAll(async () => {
        // About 4 MB over some 3 seconds: long enough for the download's progress to be shown.
        release = await startElectronMirror({ version, answer: 'release', paced: 4_000_000 })
        mirrors.push(release)
        cache = folder()
        record = join(folder(), 'record')
      })

      function startedWith(): string[] {
        return readFileSync(record, 'utf8').trimEnd().split('\n')
      }

      it('downloads Electron from the mirror with its progress, checks and extracts it, builds the app and opens it with it', async () => {
        const outcome = await npm('start', environment(release.url, cache, record))
        expect(outcome.stderr).not.toMatch(/cannot start|\n\s+at /)
        expect(outcome.code).toBe(0)
        expect(outcome.stdout).toContain(
          `Electron ${version} is not installed yet: running its installer (node node_modules/electron/install.js).`,
        )
        expect(outcome.stdout).toContain(`Downloading ${release.zipName} from ${release.host}`)
        // Its progress, every quarter (the output is not a terminal here).
        expect(outcome.stdout).toMatch(/^ {2}25% of 4\.0 MB$/m)
        expect(outcome.stdout).toMatch(/^ {2}50% of 4\.0 MB$/m)
        expect(outcome.stdout).toMatch(/^ {2}75% of 4\.0 MB$/m)
        expect(outcome.stdout).toContain(`Electron ${version} is installed.`)
        expect(outcome.stdout).toContain('Building the app first (out/main/index.js is not built yet).')
        // Downloaded and checked against the mirror's checksums, kept in the test's cache, extracted.
        expect(release.requests).toEqual([`/v${version}/${release.zipName}`, `/v${version}/SHASUMS256.txt`])
        const cached = readdirSync(cache, { recursive: true }).map(String)
        expect(cached.some((file) => file.endsWith(release.zipName))).toBe(true)
        expect(existsSync(binary())).toBe(true)
        expect(readFileSync(join(copy.dir, 'node_modules/electron/path.txt'), 'utf8')).toBe(
          executablePathInZip(process.platform),
        )
        // Started in the project with `.`: Electron opens package.json's main, which this start built.
        expect(JSON.parse(readFileSync(join(copy.dir, 'package.json'), 'utf8')).main).toBe('out/main/index.js')
        expect(existsSync(built())).toBe(true)
        const [folderStartedIn, ...args] = startedWith()
        expect(realpathSync(folderStartedIn!)).toBe(realpathSync(copy.dir))
        expect(args).toEqual(['.'])
      }, 300_000)

      it('a second start downloads nothing, builds nothing and opens the app again', async () => {
        rmSync(record)
        const before = release.requests.length
        const outcome = await npm('start', environment(release.url, cache, record))
        expect(outcome.code).toBe(0)
        expect(release.requests).toHaveLength(before)
        expect(outcome.stdout).not.toMatch(/installer|Downloading/)
        // Nothing changed since the first start built it: opened as built, not built again.
        expect(outcome.stdout).toContain('Opening the app as built in out/ (nothing changed since it was built).')
        expect(outcome.stdout).not.toMatch(/Building|building .* for production/)
        expect(startedWith().slice(1)).toEqual(['.'])
      }, 300_000)

      it('npm run dev installs a missing binary the same way (here from the download cache) and opens the app', async () => {
        // As if the binary had been removed: the copy's own Electron package, never the project's.
        rmSync(join(copy.dir, 'node_modules/electron/dist'), { recursive: true })
        rmSync(join(copy.dir, 'node_modules/electron/path.txt'))
        rmSync(record)
        const before = release.requests.length
        const outcome = await npm('dev', environment(release.url, cache, record))
        expect(outcome.code).toBe(0)
        expect(outcome.stdout).toContain(`Electron ${version} is installed from Electron's download cache.`)
        // The zip came from the cache; only the checksums were asked for again (never cached).
        expect(release.requests.slice(before)).toEqual([`/v${version}/SHASUMS256.txt`])
        expect(existsSync(binary())).toBe(true)
        expect(startedWith().slice(1)).toEqual(['.'])
      }, 300_000)
    })
  },
)
