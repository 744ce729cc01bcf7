// Bundles one test process's entry for tests/support/child-bundles.ts (decision 133), in a process
// of its own because esbuild runs plugins only in its asynchronous API and the callers start their
// processes synchronously. Prints the bundle's record: each source file with its modification time.
//   node tests/support/bundle-entry.mjs <entry.ts> <outfile.cjs>
import { readFileSync, statSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { build } from 'esbuild'

const [entry, outfile] = process.argv.slice(2)

/** Keeps `__dirname` and `__filename` of each source file as they are under tsx. */
const sourceLocations = {
  name: 'source-locations',
  setup(builder) {
    builder.onLoad({ filter: /\.ts$/ }, ({ path }) => {
      if (/[\\/]node_modules[\\/]/.test(path)) return undefined
      const contents = readFileSync(path, 'utf8')
        .replace(/\b__dirname\b/g, JSON.stringify(dirname(path)))
        .replace(/\b__filename\b/g, JSON.stringify(path))
      return { contents, loader: 'ts' }
    })
  },
}

const result = await build({
  entryPoints: [entry],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: `node${process.versions.node.split('.')[0]}`,
  packages: 'external',
  metafile: true,
  logLevel: 'silent',
  plugins: [sourceLocations],
})
const inputs = Object.fromEntries(
  Object.keys(result.metafile.inputs).map((input) => {
    const path = resolve(input)
    return [path, statSync(path).mtimeMs]
  }),
)
process.stdout.write(JSON.stringify({ inputs }))
