/**
 * Starts the real main services behind the loopback bridge, for Playwright and for trying the
 * built renderer in a browser: `npm run bridge`. Not part of the packaged app.
 *
 *   npm run bridge -- [--user-data DIR] [--static out/renderer] [--port 0] [--settle-ms 1500]
 */
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { startBridgeApp } from './bridge-app'

function argument(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`)
  return index >= 0 ? process.argv[index + 1] : undefined
}

async function main(): Promise<void> {
  const userDataDir = argument('user-data') ?? (await mkdtemp(join(tmpdir(), 'payout-desk-')))
  const running = await startBridgeApp({
    userDataDir,
    staticDir: resolve(argument('static') ?? 'out/renderer'),
    port: Number(argument('port') ?? 0),
    sandboxSettleMs: argument('settle-ms') === undefined ? undefined : Number(argument('settle-ms')),
  })
  console.log(`Bridge listening on ${running.bridge.url}`)
  console.log(`Open ${running.bridge.appUrl}`)
  console.log(`User data in ${userDataDir}`)
  const stop = (): void => {
    void running.close().then(() => process.exit(0))
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
})
