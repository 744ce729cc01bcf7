// `npm run check-sheet -- <file> ...`: runs the check-sheet command from its build
// (out/cli/check-sheet.js, plain JavaScript so it starts fast), building it first when it is not
// built yet or older than its sources (decision 67). What the build says goes to stderr, so a
// script reading --json from stdout reads only the answer. A build that fails exits 2, like a
// rejected file, with one line.
import { spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildNeeded } from './build-state.mjs'

const root = resolve(fileURLToPath(new URL('..', import.meta.url)))
const BUILT = 'out/cli/check-sheet.js'
/** What out/cli/check-sheet.js is bundled from (vite.cli.config.ts). */
const SOURCES = [
  'scripts/check-sheet.ts',
  'shared',
  'electron/main/services',
  'vite.cli.config.ts',
  'package-lock.json',
]

const reason = buildNeeded(root, BUILT, SOURCES)
if (reason) {
  console.error(`Building check-sheet first (${reason}).`)
  const built = spawnSync(
    process.execPath,
    [join(root, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'vite.cli.config.ts', '--logLevel', 'warn'],
    { cwd: root, stdio: ['ignore', process.stderr, process.stderr] },
  )
  if (built.status !== 0) {
    console.error('check-sheet could not be built (the errors are above): run `npm run build` to see them again.')
    process.exit(2)
  }
}
// The built command reads process.argv as `node out/cli/check-sheet.js <args>` would give it.
process.argv = [process.argv[0], join(root, BUILT), ...process.argv.slice(2)]
createRequire(import.meta.url)(join(root, BUILT))
