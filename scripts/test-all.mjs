// `npm test`: everything CI runs, in order, stopping at the first failure. Typecheck, lint and
// format first (fast), then the build the e2e suite serves, then unit and e2e tests inside one
// private keychain session.
import { spawnSync } from 'node:child_process'
import { explainMissing, missingForTests } from './preflight.mjs'

const missing = missingForTests()
if (missing.length) {
  console.error(explainMissing(missing))
  process.exit(1)
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
const steps = [
  ['typecheck', [npm, 'run', 'typecheck']],
  ['lint', [npm, 'run', 'lint']],
  ['format', [npm, 'run', 'format:check']],
  ['build', [npm, 'run', 'build']],
  ['unit + e2e tests', ['node', 'scripts/with-keychain.mjs', 'sh', '-c', 'npx vitest run && npx playwright test']],
]

for (const [name, argv] of steps) {
  const started = Date.now()
  console.log(`\n=== ${name} ===`)
  const result = spawnSync(argv[0], argv.slice(1), { stdio: 'inherit' })
  const seconds = ((Date.now() - started) / 1000).toFixed(1)
  if (result.status !== 0) {
    console.error(`\n${name} failed after ${seconds} s`)
    process.exit(result.status ?? 1)
  }
  console.log(`=== ${name}: ok (${seconds} s) ===`)
}
