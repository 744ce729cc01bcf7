/**
 * The processes the tests kill and start again run from bundles (tests/support/child-bundles.ts,
 * decision 133): the same source as under tsx, with each module's own `__dirname` and
 * `__filename`, made again when a source file changed, and tsx when no run prepared a bundle folder.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CHILD_BUNDLES_ENV, nodeArgsFor } from '../../support/child-bundles'

const ROOT = resolve(__dirname, '../../..')
// Inside the project (packages resolve from its node_modules), in out/, which git, the linter and
// the formatter leave alone.
const dir = join(ROOT, 'out', `child-bundles-test-${process.pid}`)
const entry = join(dir, 'entry.ts')
const bundles = join(dir, 'bundles')
const before = process.env[CHILD_BUNDLES_ENV]

function writeValue(value: string, mtime: Date): void {
  const file = join(dir, 'nested', 'value.ts')
  writeFileSync(file, `export const value: string = ${JSON.stringify(value)}\nexport const where = __dirname\n`)
  utimesSync(file, mtime, mtime)
}

const run = (args: string[]) =>
  JSON.parse(execFileSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8' })) as Record<string, string>

beforeAll(() => {
  mkdirSync(join(dir, 'nested'), { recursive: true })
  mkdirSync(bundles, { recursive: true })
  writeValue('first', new Date(Date.now() - 60_000))
  writeFileSync(
    entry,
    [
      "import { value, where } from './nested/value'",
      // A package from node_modules stays outside the bundle and still loads.
      "import { z } from 'zod'",
      "const sum: string = z.string().parse('0.3')",
      'console.log(JSON.stringify({ dirname: __dirname, filename: __filename, value, where, sum }))',
    ].join('\n'),
  )
})

afterAll(() => {
  if (before === undefined) delete process.env[CHILD_BUNDLES_ENV]
  else process.env[CHILD_BUNDLES_ENV] = before
  rmSync(dir, { recursive: true, force: true })
})

describe('a test process started from its bundle', () => {
  it('runs the source as tsx would: each module keeps its own __dirname and __filename', () => {
    process.env[CHILD_BUNDLES_ENV] = bundles
    const args = nodeArgsFor(entry)
    expect(args).toHaveLength(1)
    expect(args[0]!.startsWith(bundles)).toBe(true)
    expect(run(args)).toEqual({
      dirname: dir,
      filename: entry,
      value: 'first',
      where: join(dir, 'nested'),
      sum: '0.3',
    })
    // The same bundle serves the next start.
    expect(nodeArgsFor(entry)).toEqual(args)
  })

  it('is made again when a source file it holds changed since', () => {
    process.env[CHILD_BUNDLES_ENV] = bundles
    expect(run(nodeArgsFor(entry)).value).toBe('first')
    writeValue('second', new Date())
    expect(run(nodeArgsFor(entry)).value).toBe('second')
  })

  it('outside a test run, starts through tsx', () => {
    delete process.env[CHILD_BUNDLES_ENV]
    const args = nodeArgsFor(entry)
    expect(args).toEqual(['--import', 'tsx', entry])
    expect(run(args).value).toBe('second')
  })
})
