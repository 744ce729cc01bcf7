/**
 * Starts the real main services behind the loopback bridge, for Playwright and for trying the
 * built renderer in a browser: `npm run bridge`. Not part of the packaged app.
 *
 *   npm run bridge -- [--user-data DIR] [--static out/renderer] [--port 0] [--settle-ms 1500] [--team-lease-seconds 120]
 */
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { startBridgeApp } from './bridge-app'

async function main(): Promise<void> {
  // A flag it does not know stops it with Node's message naming the flag (printed below).
  const { values: flags } = parseArgs({
    options: {
      'user-data': { type: 'string' },
      static: { type: 'string' },
      port: { type: 'string' },
      'settle-ms': { type: 'string' },
      'team-lease-seconds': { type: 'string' },
    },
  })
  const userDataDir = flags['user-data'] ?? (await mkdtemp(join(tmpdir(), 'payout-desk-')))
  const running = await startBridgeApp({
    userDataDir,
    staticDir: resolve(flags.static ?? 'out/renderer'),
    port: Number(flags.port ?? 0),
    sandboxSettleMs: flags['settle-ms'] === undefined ? undefined : Number(flags['settle-ms']),
    ...(flags['team-lease-seconds'] ? { teamLeaseSeconds: Number(flags['team-lease-seconds']) } : {}),
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
