// `npm test`: everything CI runs, in order, stopping at the first failure, on Linux, macOS or
// Windows. The preflight first (what is missing, in one line), then typecheck, lint and format
// (side by side), the build the tests use, then the unit tests, the e2e tests and the fresh-clone tests
// (tests/fresh-clone), each with a real keychain (scripts/with-keychain.mjs). Commands are started
// through node, never a shell, so the same steps run on every OS.
import { spawn, spawnSync } from 'node:child_process'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { explainMissing, missingForTests } from './preflight.mjs'

const root = resolve(fileURLToPath(new URL('..', import.meta.url)))

const missing = missingForTests()
if (missing.length) {
  console.error(explainMissing(missing))
  process.exit(1)
}

const node = process.execPath
// npm's own CLI when `npm test` started this (npm_execpath), else npm from PATH through the shell.
const npmCli = process.env.npm_execpath
const npm = (...args) => (npmCli && /\.c?js$/.test(npmCli) ? [node, npmCli, ...args] : ['npm', ...args])
const withKeychain = (...args) => [node, join(root, 'scripts/with-keychain.mjs'), ...args]

// The three static checks are single-threaded and independent: they run side by side (about a
// minute less on two cores), each printing its own output when it ends.
const checks = [
  ['typecheck', npm('run', 'typecheck')],
  ['lint', npm('run', 'lint')],
  ['format', npm('run', 'format:check')],
]

const steps = [
  ['build', npm('run', 'build')],
  ['unit tests', withKeychain(node, join(root, 'node_modules/vitest/vitest.mjs'), 'run')],
  ['e2e tests', withKeychain(node, join(root, 'node_modules/@playwright/test/cli.js'), 'test')],
  // Each builds the app from a copy made as a fresh clone has it: on their own, after the rest.
  [
    'fresh-clone tests',
    withKeychain(node, join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--config', 'vitest.fresh-clone.config.ts'),
  ],
]

function runChecks() {
  const started = Date.now()
  console.log(`\n=== ${checks.map(([name]) => name).join(', ')} (side by side) ===`)
  return Promise.all(
    checks.map(
      ([name, argv]) =>
        new Promise((done) => {
          const child = spawn(argv[0], argv.slice(1), {
            cwd: root,
            stdio: ['ignore', 'pipe', 'pipe'],
            shell: process.platform === 'win32' && argv[0] === 'npm',
          })
          const output = []
          child.stdout.on('data', (chunk) => output.push(chunk))
          child.stderr.on('data', (chunk) => output.push(chunk))
          child.on('close', (code) => {
            const seconds = ((Date.now() - started) / 1000).toFixed(1)
            const text = Buffer.concat(output).toString('utf8').trim()
            if (text) console.log(text)
            console.log(code === 0 ? `=== ${name}: ok (${seconds} s) ===` : `\n${name} failed after ${seconds} s`)
            done(code ?? 1)
          })
        }),
    ),
  )
}

const failed = (await runChecks()).find((code) => code !== 0)
if (failed !== undefined) process.exit(failed)

for (const [name, argv] of steps) {
  const started = Date.now()
  console.log(`\n=== ${name} ===`)
  const result = spawnSync(argv[0], argv.slice(1), {
    cwd: root,
    stdio: 'inherit',
    shell: process.platform === 'win32' && argv[0] === 'npm',
  })
  const seconds = ((Date.now() - started) / 1000).toFixed(1)
  if (result.status !== 0) {
    console.error(`\n${name} failed after ${seconds} s`)
    process.exit(result.status ?? 1)
  }
  console.log(`=== ${name}: ok (${seconds} s) ===`)
}
