/**
 * A desk that a crash test kills where it chooses: the bridge (the real main services, test-mode
 * desktop stand-ins) in a process of its own, which SIGKILLs itself at the checkpoint named by
 * KILL_AT (electron/main/services/checkpoints.ts) on its first passage, after printing
 * `{ "killedAt": "<checkpoint>", "reference": "<movement>" }`. Prints `{ "appUrl", "pid" }` once
 * listening. Environment: USER_DATA, KILL_AT. Started by killed-desk.ts.
 */
import { writeSync } from 'node:fs'
import { resolve } from 'node:path'
import { startBridgeApp } from '../../electron/main/bridge-app'
import type { Checkpoint } from '../../electron/main/services/checkpoints'

/** One JSON line, written before this returns: a SIGKILL right after must not lose it. */
const say = (message: unknown): void => void writeSync(1, `${JSON.stringify(message)}\n`)

async function main(): Promise<void> {
  const killAt = process.env['KILL_AT'] as Checkpoint
  const running = await startBridgeApp({
    userDataDir: process.env['USER_DATA']!,
    staticDir: resolve(__dirname, '../../out/renderer'),
    sandboxSettleMs: 300,
    testMode: true,
    checkpoints: (point, reference) => {
      if (point !== killAt) return
      say({ killedAt: point, reference })
      process.kill(process.pid, 'SIGKILL')
    },
  })
  say({ appUrl: running.bridge.appUrl, pid: process.pid })
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
