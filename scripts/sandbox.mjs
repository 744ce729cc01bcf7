#!/usr/bin/env node
// Runs the TypeScript sandbox CLI under tsx in a child process, so `npm run sandbox` needs no build.
// Signals are forwarded so Ctrl+C / SIGTERM close the server cleanly, and the exit code is kept.
import { spawn } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const child = spawn(
  process.execPath,
  ['--import', 'tsx', join('electron', 'sandbox', 'cli.ts'), ...process.argv.slice(2)],
  {
    cwd: root,
    stdio: 'inherit',
  },
)

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal)
  })
}

child.on('error', (error) => {
  console.error(`sandbox: could not start: ${error.message}`)
  process.exit(1)
})
child.on('exit', (code, signal) => {
  if (signal) {
    // Die of the same signal so callers see how the child ended.
    process.removeAllListeners(signal)
    process.kill(process.pid, signal)
  } else process.exit(code ?? 1)
})
