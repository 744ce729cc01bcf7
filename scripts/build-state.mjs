// Whether a build output is missing or older than what it is built from, for the commands that run
// built code (`npm run bridge`, `npm run check-sheet`): on a fresh clone nothing is built, and after
// a pull an old build would serve old code (decision 67). Modification times, as make compares them.
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'

const SKIPPED = new Set(['node_modules', 'out', 'dist', '.git', 'test-results'])

/** The most recently changed file under `paths` (files or folders), as { file, time }. */
export function newestChange(paths) {
  let newest = { file: null, time: 0 }
  const visit = (path) => {
    let stats
    try {
      stats = statSync(path)
    } catch {
      return
    }
    if (stats.isDirectory()) {
      for (const entry of readdirSync(path)) if (!SKIPPED.has(entry)) visit(join(path, entry))
    } else if (stats.mtimeMs > newest.time) {
      newest = { file: path, time: stats.mtimeMs }
    }
  }
  for (const path of paths) visit(path)
  return newest
}

/** Why `output` must be built before it is used, or null when it is current. */
export function buildNeeded(root, output, sources) {
  const built = join(root, output)
  if (!existsSync(built)) return `${output} is not built yet`
  const newest = newestChange(sources.map((source) => join(root, source)))
  return newest.time > statSync(built).mtimeMs
    ? `${relative(root, newest.file)} changed since ${output} was built`
    : null
}
