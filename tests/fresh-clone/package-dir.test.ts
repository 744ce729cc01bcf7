/**
 * `npm run package -- --dir` on a fresh clone, with Electron fetched the way electron-builder
 * fetches it, from a loopback mirror of Electron's releases (tests/support/electron-mirror.ts;
 * ELECTRON_MIRROR, a download cache and an electron-builder cache of the test's own), then the
 * packaged app read back as an installed one would be: app.asar with main, its workers, the
 * preload, the renderer and every production dependency; keytar's native module unpacked beside
 * it; the payout templates in resources/templates; the fuses flipped in the executable.
 *
 * A failed download is shown through electron-builder's own Electron download (the function its
 * packaging calls) against the mirror, turned into the line the command prints, without a build.
 *
 * What this cannot show (decision 66): the executable is a stand-in, so no real Electron loads the
 * archive, and whether keytar's module (N-API, rebuilt here by @electron/rebuild without network)
 * loads in Electron 45 is not shown; installers (AppImage, deb, nsis, dmg) need tools
 * electron-builder downloads from GitHub or the target OS. Linux only: on macOS the stand-in would
 * need a whole Electron.app (its fuses live in Electron Framework), on Windows a real .exe.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { extractFile, listPackage, statFile } from '@electron/asar'
import { FuseV1Options, getCurrentFuseWire } from '@electron/fuses'
import { downloadElectronArtifactZip } from 'app-builder-lib/out/util/electronGet'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { downloadFailureLine } from '../../scripts/package.mjs'
import { cleanCopyOfProject, productionPackages } from '../support/clean-copy'
import type { CleanCopy } from '../support/clean-copy'
import { electronVersionIn, startElectronMirror } from '../support/electron-mirror'
import type { ElectronMirror } from '../support/electron-mirror'
import { npmCommand, runCommand } from '../support/run-command'
import type { CommandOutcome } from '../support/run-command'

const ON = 49
const OFF = 48

describe.skipIf(process.platform !== 'linux')('npm run package -- --dir on a fresh clone (Linux)', () => {
  let copy: CleanCopy
  let version: string
  const mirrors: ElectronMirror[] = []
  const folders: string[] = []

  beforeAll(() => {
    // electron-builder rebuilds keytar in place: the copy's own, never the project's.
    copy = cleanCopyOfProject({ copyPackages: ['keytar'], hardLinkedPackages: true })
    version = electronVersionIn(copy.dir)
  }, 180_000)

  afterAll(async () => {
    for (const mirror of mirrors) await mirror.close()
    copy?.remove()
    for (const folder of folders) rmSync(folder, { recursive: true, force: true })
  }, 180_000)

  function folder(): string {
    const made = mkdtempSync(join(process.env['PAYOUT_DESK_REAL_TMPDIR'] ?? tmpdir(), 'payout-desk-package-'))
    folders.push(made)
    return made
  }

  async function packageWith(mirror: ElectronMirror): Promise<CommandOutcome> {
    const caches = folder()
    return runCommand([...npmCommand(), 'run', '--silent', 'package', '--', '--dir'], {
      cwd: copy.dir,
      env: {
        ...process.env,
        ELECTRON_MIRROR: mirror.url,
        electron_config_cache: join(caches, 'electron'),
        ELECTRON_BUILDER_CACHE: join(caches, 'electron-builder'),
      },
      timeoutMs: 600_000,
    })
  }

  /**
   * A failed download, as electron-builder's own Electron download (the function its packaging
   * calls) fails against the mirror, turned into the line `npm run package` prints (its catch is
   * this function and console.error; the whole command is run below, where it succeeds).
   */
  async function packagingFailure(
    answer: 'not-found' | 'wrong-checksum',
  ): Promise<{ line: string | null; mirror: ElectronMirror }> {
    const mirror = await startElectronMirror({ version, answer })
    mirrors.push(mirror)
    const before = process.env['ELECTRON_MIRROR']
    process.env['ELECTRON_MIRROR'] = mirror.url
    try {
      await downloadElectronArtifactZip({
        electronDownload: { cache: folder() },
        artifactName: 'electron',
        platformName: process.platform,
        arch: process.arch,
        version,
      })
      return { line: null, mirror }
    } catch (error) {
      return { line: downloadFailureLine(error), mirror }
    } finally {
      if (before === undefined) delete process.env['ELECTRON_MIRROR']
      else process.env['ELECTRON_MIRROR'] = before
    }
  }

  it('a mirror answering 404: one line naming the file, the host and its answer', async () => {
    const { line, mirror } = await packagingFailure('not-found')
    expect(line).toBe(
      `Payout Desk could not be packaged: ${mirror.zipName} could not be downloaded from ${mirror.host} (it answered 404 Not Found).` +
        ` Retry with \`npm run package\`, with ELECTRON_MIRROR=https://<mirror>/electron/ if ${mirror.host} is blocked from here.`,
    )
  }, 120_000)

  it('a zip that does not match the mirror checksum: one line saying so', async () => {
    const { line, mirror } = await packagingFailure('wrong-checksum')
    expect(line).toBe(
      `Payout Desk could not be packaged: ${mirror.zipName} was downloaded from ${mirror.host} but does not match its published checksum` +
        ` (Generated checksum for "${mirror.zipName}" did not match expected checksum).` +
        ` Retry with \`npm run package\`, with ELECTRON_MIRROR=https://<mirror>/electron/ if ${mirror.host} is blocked from here.`,
    )
  }, 120_000)

  it('any other error is not taken for a download', () => {
    expect(downloadFailureLine(new Error('Cannot find module x'))).toBeNull()
  })

  describe('with a mirror that serves the release', () => {
    let release: ElectronMirror
    let outcome: CommandOutcome
    const unpacked = () => join(copy.dir, 'dist/linux-unpacked')
    const archive = () => join(unpacked(), 'resources/app.asar')
    let files: string[]

    beforeAll(async () => {
      release = await startElectronMirror({ version, answer: 'release' })
      mirrors.push(release)
      rmSync(join(copy.dir, 'dist'), { recursive: true, force: true })
      outcome = await packageWith(release)
      if (existsSync(archive())) files = listPackage(archive(), { isPack: false })
    }, 600_000)

    it('downloads Electron from the mirror, checked against its checksums, and packages the app', () => {
      expect(outcome.stderr).not.toMatch(/could not be packaged|\n\s+at /)
      expect(outcome.code).toBe(0)
      expect(release.requests).toEqual([`/v${version}/${release.zipName}`, `/v${version}/SHASUMS256.txt`])
      expect(existsSync(archive())).toBe(true)
    })

    it('app.asar holds main and its workers, the preload and the renderer as built, and no sources or tools', () => {
      for (const file of [
        '/package.json',
        '/out/main/index.js',
        '/out/main/bulk-import-worker.js',
        '/out/main/pdf-worker.js',
        '/out/main/file-reader-worker.js',
        '/out/preload/index.js',
        '/out/renderer/index.html',
      ]) {
        expect(files, file).toContain(file)
      }
      expect(extractFile(archive(), 'out/main/index.js').toString()).toBe(
        readFileSync(join(copy.dir, 'out/main/index.js'), 'utf8'),
      )
      // Every script and style the renderer's page loads is inside.
      const page = extractFile(archive(), 'out/renderer/index.html').toString()
      const assets = [...page.matchAll(/(?:src|href)="\.?\/?(assets\/[^"]+)"/g)].map((match) => match[1]!)
      expect(assets.length).toBeGreaterThan(0)
      for (const asset of assets) expect(files).toContain(`/out/renderer/${asset}`)
      expect(files.filter((file) => file.startsWith('/out/cli'))).toEqual([])
      expect(files.filter((file) => file.endsWith('.map'))).toEqual([])
      expect(files.filter((file) => /^\/(electron|renderer|shared|tests|scripts)\//.test(file))).toEqual([])
    })

    it('every production dependency is inside, and keytar is unpacked beside the archive', () => {
      const missing = productionPackages(copy.dir).filter(
        (name) => !files.includes(`/node_modules/${name}/package.json`),
      )
      expect(missing).toEqual([])
      const keytar = 'node_modules/keytar/build/Release/keytar.node'
      expect(statFile(archive(), keytar)).toMatchObject({ unpacked: true })
      expect(existsSync(join(unpacked(), 'resources/app.asar.unpacked', keytar))).toBe(true)
      // No dev-only tool is shipped.
      for (const tool of ['vite', 'vitest', 'electron', 'electron-builder', 'typescript']) {
        expect(files).not.toContain(`/node_modules/${tool}/package.json`)
      }
    })

    it('the payout templates are in resources/templates, where the app looks for them', () => {
      const shipped = readdirSync(join(unpacked(), 'resources/templates')).sort()
      const made = readdirSync(join(copy.dir, 'resources/templates'))
        .filter((name) => /\.(xlsx|csv)$/.test(name))
        .sort()
      expect(shipped).toEqual(made)
      expect(shipped).toContain('payouts-template.xlsx')
    })

    it('the fuses are flipped in the packaged executable as electron-builder.yml sets them', async () => {
      const wire = await getCurrentFuseWire(join(unpacked(), 'payout-desk'))
      expect({
        runAsNode: wire[FuseV1Options.RunAsNode],
        cookieEncryption: wire[FuseV1Options.EnableCookieEncryption],
        nodeOptions: wire[FuseV1Options.EnableNodeOptionsEnvironmentVariable],
        inspectArguments: wire[FuseV1Options.EnableNodeCliInspectArguments],
        asarIntegrity: wire[FuseV1Options.EnableEmbeddedAsarIntegrityValidation],
        onlyLoadAppFromAsar: wire[FuseV1Options.OnlyLoadAppFromAsar],
        fileProtocolPrivileges: wire[FuseV1Options.GrantFileProtocolExtraPrivileges],
      }).toEqual({
        runAsNode: OFF,
        cookieEncryption: ON,
        nodeOptions: OFF,
        inspectArguments: OFF,
        asarIntegrity: ON,
        onlyLoadAppFromAsar: ON,
        fileProtocolPrivileges: OFF,
      })
    })
  })
})
