// `npm run package [-- <electron-builder options>]`: builds the app, then makes its installers with
// electron-builder (its own options: `--dir` for an unpacked app, `--linux deb`, `--win`, `--mac`).
// electron-builder downloads the Electron release of each target itself, through its own
// @electron/get (ELECTRON_MIRROR honoured, the same cache as `npm start`'s: electron_config_cache
// is passed on as electronDownload.cache), and shows its progress. When that download fails, this
// says so in one line naming the host and the error, as `npm start` does (decision 66), instead of
// electron-builder's stack; every other failure is reported as electron-builder reports it.
import { spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { hostOf } from './electron-binary.mjs'
import { nodeVersionProblem } from './start.mjs'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const require = createRequire(import.meta.url)

const DEFAULT_ELECTRON_MIRROR = 'https://github.com/electron/electron/releases/download/'

/** The mirror @electron/get asks for Electron's releases, by its own order of settings. */
export function electronMirror(env = process.env) {
  return (
    env['npm_config_electron_mirror'] ||
    env['NPM_CONFIG_ELECTRON_MIRROR'] ||
    env['npm_package_config_electron_mirror'] ||
    env['ELECTRON_MIRROR'] ||
    DEFAULT_ELECTRON_MIRROR
  )
}

/** The URL a failed download asked for, as got (electron-builder's HTTP client) reports it. */
function urlOf(error) {
  const url = error?.response?.url ?? error?.response?.requestUrl ?? error?.options?.url
  return url ? String(url) : null
}

/**
 * One line for an error that is a failed download (no answer, an HTTP error, a checksum that does
 * not match), or null for any other error.
 */
export function downloadFailureLine(error, env = process.env) {
  const url = urlOf(error)
  const message = String(error?.message ?? error).split('\n')[0]
  const network = typeof error?.code === 'string' && error?.name === 'RequestError'
  const http = error?.name === 'HTTPError'
  const checksum = typeof error?.filename === 'string' && /checksum/i.test(message)
  if (!network && !http && !checksum) return null
  const file = checksum ? error.filename : url ? decodeURIComponent(new URL(url).pathname.split('/').pop()) : 'a file'
  const electron = /^electron-v/.test(file)
  const host = url ? hostOf(url) : electron ? hostOf(electronMirror(env)) : 'its host'
  const what = http
    ? `it answered ${error.response?.statusCode ?? ''} ${error.response?.statusMessage ?? ''}`
        .replace(/\s+/g, ' ')
        .trim()
    : message.replace(/^Response code /, '')
  const variable = electron ? 'ELECTRON_MIRROR=https://<mirror>/electron/' : 'ELECTRON_BUILDER_BINARIES_MIRROR=<mirror>'
  const problem = checksum
    ? `${file} was downloaded from ${host} but does not match its published checksum (${message.replace(/\.$/, '')})`
    : `${file} could not be downloaded from ${host} (${what})`
  return (
    `Payout Desk could not be packaged: ${problem}.` +
    ` Retry with \`npm run package\`, with ${variable} if ${host} is blocked from here.`
  )
}

async function packageApp(args) {
  const { build, configureBuildCommand, createYargs } = require('electron-builder/out/builder')
  const given = [...args]
  // The download cache npm start uses (electron_config_cache) is electron-builder's too.
  if (process.env['electron_config_cache'] && !given.some((arg) => arg.includes('electronDownload.cache'))) {
    given.push(`-c.electronDownload.cache=${process.env['electron_config_cache']}`)
  }
  let failure = null
  await createYargs()
    .command(['build', '*'], 'Build', configureBuildCommand, async (options) => {
      try {
        await build(options)
      } catch (error) {
        failure = error
      }
    })
    .help()
    .strict()
    .parseAsync(given)
  if (!failure) return 0
  const line = downloadFailureLine(failure)
  if (line) console.error(line)
  else console.error(`Payout Desk could not be packaged: ${failure?.stack ?? failure}`)
  return 1
}

export async function main(args = process.argv.slice(2)) {
  const nodeProblem = nodeVersionProblem()
  if (nodeProblem) {
    console.error(nodeProblem)
    return 1
  }
  const built = spawnSync(process.execPath, [join(root, 'node_modules/electron-vite/bin/electron-vite.js'), 'build'], {
    cwd: root,
    stdio: 'inherit',
  })
  if (built.status !== 0) return built.status ?? 1
  process.chdir(root)
  return packageApp(args)
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main()
}
