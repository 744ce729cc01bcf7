// `npm test`: everything CI runs, stopping at the first failure, on Linux, macOS or Windows. The
// preflight first (what is missing, in one line); then the build the tests use, the unit tests,
// the e2e tests and the fresh-clone tests (tests/fresh-clone), one after another, each with a real
// keychain (scripts/with-keychain.mjs). Typecheck, lint and format run beside them from the start,
// at the lowest CPU priority (decision 122): the tests leave part of the cores idle while they wait
// on timers, leases, killed processes and the browser, and the static checks take only that, so
// they cost the tests no speed and their timers stay honest. Each check is told when it ends; a
// failed one stops the run at once. Commands are started through node, never a shell, so the same
// steps run on every OS.
import { spawn } from 'node:child_process'
import { constants, setPriority } from 'node:os'
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
const windows = process.platform === 'win32'
const shellFor = (argv) => windows && argv[0] === 'npm'

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
const allStarted = Date.now()
const since = (started) => ((Date.now() - started) / 1000).toFixed(1)

/**
 * A static check at the lowest priority, its output kept until it is told. POSIX: under `nice -n 19`
 * (the whole process tree inherits it); Windows: the process's priority set to the lowest class.
 */
const checking = new Set()
// A run stopped by a failed step leaves no check running behind it.
process.on('exit', () => checking.forEach((child) => child.kill()))

function startCheck([name, argv]) {
  const niced = windows ? argv : ['nice', '-n', '19', ...argv]
  const child = spawn(niced[0], niced.slice(1), { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], shell: shellFor(argv) })
  checking.add(child)
  child.on('close', () => checking.delete(child))
  if (windows && child.pid) setPriority(child.pid, constants.priority.PRIORITY_LOWEST)
  const output = []
  child.stdout.on('data', (chunk) => output.push(chunk))
  child.stderr.on('data', (chunk) => output.push(chunk))
  return new Promise((done) => {
    child.on('error', (error) => done({ name, code: 1, seconds: since(allStarted), text: String(error) }))
    child.on('close', (code) =>
      done({ name, code: code ?? 1, seconds: since(allStarted), text: Buffer.concat(output).toString('utf8').trim() }),
    )
  })
}

/** The step running now, stopped when a static check fails. */
let current = null

function stopCurrentStep() {
  // with-keychain.mjs passes the signal on to the test runner under it. The step is not detached
  // into a session of its own: Linux schedules each session as one group (autogroup), and a step in
  // its own would share the CPU half and half with the niced checks, whatever their nice value.
  current?.kill('SIGTERM')
}

function tell({ name, code, seconds, text }) {
  if (code === 0) {
    console.log(`\n=== ${name} (at the lowest priority, beside the tests): ok (done ${seconds} s into npm test) ===`)
    return
  }
  if (text) console.log(`\n${text}`)
  console.error(`\n${name} failed (${seconds} s into npm test): the run stops here`)
  stopCurrentStep()
  process.exit(code)
}

function runStep([name, argv]) {
  const started = Date.now()
  console.log(`\n=== ${name} ===`)
  return new Promise((done) => {
    const child = spawn(argv[0], argv.slice(1), { cwd: root, stdio: 'inherit', shell: shellFor(argv) })
    current = child
    child.on('error', (error) => {
      console.error(`\n${name} could not start: ${error.message}`)
      done(1)
    })
    child.on('close', (code) => {
      current = null
      if (code !== 0) console.error(`\n${name} failed after ${since(started)} s`)
      else console.log(`=== ${name}: ok (${since(started)} s) ===`)
      done(code ?? 1)
    })
  })
}

// A run stopped from the terminal stops its step too.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    stopCurrentStep()
    process.exit(130)
  })
}

const staticChecks = Promise.all(checks.map((check) => startCheck(check).then((result) => (tell(result), result))))
for (const step of steps) {
  const code = await runStep(step)
  if (code !== 0) process.exit(code)
}
await staticChecks
console.log(`\n=== npm test: every step ok (${since(allStarted)} s) ===`)
