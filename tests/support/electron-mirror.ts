/**
 * A loopback mirror of Electron's releases, for the tests of `npm start` and `npm run package`
 * without the internet (decision 66). It serves what @electron/get asks a mirror for,
 * `<mirror>v<version>/electron-v<version>-<platform>-<arch>.zip` and `<mirror>v<version>/SHASUMS256.txt`,
 * and counts every request. The zip holds a stand-in for the Electron executable: a shell script
 * that writes the folder it was started in and its arguments to the file named by
 * PAYOUT_DESK_STANDIN_RECORD, then exits 0. It carries Electron's fuse wire with Electron's own
 * defaults, so electron-builder can flip the fuses in it as in a real binary and a test can read
 * them back.
 */
import { createHash, randomBytes } from 'node:crypto'
import { createServer } from 'node:http'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { strToU8, zipSync } from 'fflate'
import type { Zippable } from 'fflate'

export const STANDIN_RECORD_ENV = 'PAYOUT_DESK_STANDIN_RECORD'

/** Electron's fuse sentinel, followed by the wire's version (1), its length and one byte a fuse. */
export const FUSE_SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX'
/**
 * Electron's defaults, in @electron/fuses' order: RunAsNode on, EnableCookieEncryption off,
 * EnableNodeOptionsEnvironmentVariable on, EnableNodeCliInspectArguments on,
 * EnableEmbeddedAsarIntegrityValidation off, OnlyLoadAppFromAsar off,
 * LoadBrowserProcessSpecificV8Snapshot off, GrantFileProtocolExtraPrivileges on ('1' on, '0' off).
 */
export const ELECTRON_DEFAULT_FUSES = '10110001'

/** Where the executable sits in Electron's zip, as node_modules/electron/install.js names it. */
export function executablePathInZip(platform: NodeJS.Platform): string {
  if (platform === 'darwin') return 'Electron.app/Contents/MacOS/Electron'
  if (platform === 'win32') return 'electron.exe'
  return 'electron'
}

/** The stand-in's text: records, exits before the shell ever reads the fuse wire on its last line. */
export function standInExecutable(): Uint8Array {
  const script =
    '#!/bin/sh\n' +
    `# A stand-in for Electron made by tests/support/electron-mirror.ts.\n` +
    `{ pwd; for argument in "$@"; do printf '%s\\n' "$argument"; done; } > "$${STANDIN_RECORD_ENV}"\n` +
    'exit 0\n' +
    `# ${FUSE_SENTINEL}`
  const head = strToU8(script)
  const wire = new Uint8Array([1, ELECTRON_DEFAULT_FUSES.length, ...strToU8(ELECTRON_DEFAULT_FUSES), 10])
  const bytes = new Uint8Array(head.length + wire.length)
  bytes.set(head)
  bytes.set(wire, head.length)
  return bytes
}

/**
 * Electron's release zip for one platform, with the stand-in as its executable (mode 0755), and
 * `padding` bytes of noise in a file of their own, so a download lasts long enough to be seen.
 */
export function electronReleaseZip(version: string, platform: NodeJS.Platform, padding = 0): Uint8Array {
  const executable = 0o100755 << 16
  const files: Zippable = {
    [executablePathInZip(platform)]: [standInExecutable(), { os: 3, attrs: executable >>> 0 }],
    version: strToU8(version),
    LICENSE: strToU8('The stand-in for Electron used by the tests.\n'),
    ...(padding > 0 ? { 'resources/padding.bin': new Uint8Array(randomBytes(padding)) } : {}),
  }
  return zipSync(files, { level: 0 })
}

export type MirrorAnswer = 'release' | 'not-found' | 'wrong-checksum'

export interface ElectronMirror {
  /** ELECTRON_MIRROR's value: ends with a slash, as @electron/get joins it with `v<version>/`. */
  url: string
  host: string
  /** The path of every request, in order. */
  requests: string[]
  zipName: string
  close(): Promise<void>
}

export function electronVersionIn(root: string): string {
  const manifest = JSON.parse(readFileSync(join(root, 'node_modules/electron/package.json'), 'utf8')) as {
    version: string
  }
  return manifest.version
}

export async function startElectronMirror(options: {
  version: string
  platform?: NodeJS.Platform
  arch?: string
  answer: MirrorAnswer
  /** Serve a zip of about this many bytes in 16 pieces, 200 ms apart (the last 1.2 s), as a slow network would. */
  paced?: number
}): Promise<ElectronMirror> {
  const platform = options.platform ?? process.platform
  const arch = options.arch ?? process.arch
  const zipName = `electron-v${options.version}-${platform}-${arch}.zip`
  const zip = Buffer.from(electronReleaseZip(options.version, platform, options.paced ?? 0))
  const checksum = options.answer === 'wrong-checksum' ? '0'.repeat(64) : createHash('sha256').update(zip).digest('hex')
  const requests: string[] = []
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://mirror').pathname
    requests.push(path)
    if (options.answer !== 'not-found' && path === `/v${options.version}/${zipName}`) {
      response.writeHead(200, { 'content-type': 'application/zip', 'content-length': zip.length })
      if (!options.paced) return void response.end(zip)
      const piece = Math.ceil(zip.length / 16)
      let sent = 0
      const next = () => {
        const end = Math.min(zip.length, sent + piece)
        response.write(zip.subarray(sent, end))
        sent = end
        // The last piece waits longer: the download stays at 75 to 99% for over a second, so a
        // display that looks every 250 ms sees that quarter even on a loaded machine.
        if (sent < zip.length) setTimeout(next, zip.length - sent <= piece ? 1_200 : 200)
        else response.end()
      }
      next()
    } else if (options.answer !== 'not-found' && path === `/v${options.version}/SHASUMS256.txt`) {
      response.end(`${checksum} *${zipName}\n`)
    } else {
      response.writeHead(404, { 'content-type': 'text/plain' })
      response.end('Not Found')
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  return {
    url: `http://127.0.0.1:${port}/`,
    host: `127.0.0.1:${port}`,
    requests,
    zipName,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
