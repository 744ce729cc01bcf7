/**
 * One desk for the two-desk team flows: the bridge (the real main services, test-mode desktop
 * stand-ins) in a process of its own, so a test can SIGKILL it mid-release as a crash would.
 * Prints one JSON line `{ "appUrl", "pid" }` once listening; then reads JSON lines on stdin:
 * `{ "openPath": "<file>" }` queues the file the next Open dialog returns, `{ "notices": true }`
 * prints the desktop notifications so far.
 * Environment: USER_DATA, TEAM_LEASE_SECONDS. Run with `node --import tsx tests/e2e/team-desk-process.ts`.
 */
import { resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { startBridgeApp } from '../../electron/main/bridge-app'

async function main(): Promise<void> {
  const running = await startBridgeApp({
    userDataDir: process.env['USER_DATA']!,
    staticDir: resolve(__dirname, '../../out/renderer'),
    sandboxSettleMs: 300,
    testMode: true,
    teamLeaseSeconds: Number(process.env['TEAM_LEASE_SECONDS'] ?? 120),
  })
  process.stdout.write(`${JSON.stringify({ appUrl: running.bridge.appUrl, pid: process.pid })}\n`)
  createInterface({ input: process.stdin }).on('line', (line) => {
    const message = JSON.parse(line) as { openPath?: string; notices?: boolean }
    if (message.openPath) running.desktop.queueOpenPath(message.openPath)
    if (message.notices) process.stdout.write(`${JSON.stringify({ notices: running.desktop.notices })}\n`)
  })
  const stop = (): void => void running.close().then(() => process.exit(0))
  process.on('SIGTERM', stop)
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
