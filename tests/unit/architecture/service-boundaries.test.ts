/**
 * The lint rule of decision 094: a service under electron/main/services/<x>/ imports another
 * service only through that service's public module. `npm run lint` (eslint .) runs it with the
 * repo's own config; here that config lints a fixture of violations as if it were a team module.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

const ROOT = join(__dirname, '..', '..', '..')
const RULE = 'local/service-boundaries'

async function lintAs(path: string, text: string) {
  const eslint = new ESLint({ cwd: ROOT })
  const [result] = await eslint.lintText(text, { filePath: join(ROOT, path) })
  return result!.messages.filter((message) => message.ruleId === RULE)
}

describe('a service reaches another only through its public module', () => {
  const fixture = readFileSync(join(ROOT, 'tests/fixtures/lint/service-boundary-violations.ts.txt'), 'utf8')

  it("fails on imports of another service's internals, type-only and re-exports included", async () => {
    const errors = await lintAs('electron/main/services/team/boundary-fixture.ts', fixture)
    expect(errors.map((error) => [error.line, error.severity])).toEqual([
      [3, 2],
      [4, 2],
      [5, 2],
      [6, 2],
    ])
    expect(errors[0]!.message).toContain('bulk/run/run-rows')
    expect(errors[0]!.message).toContain('bulk/runs.ts')
    expect(errors[2]!.message).toContain('journal/index.ts')
  })

  it('lets a service reach its own modules, and leaves the app wiring outside services alone', async () => {
    expect(
      await lintAs('electron/main/services/bulk/boundary-fixture.ts', "import { x } from './run/run-rows'\n"),
    ).toEqual([])
    expect(await lintAs('electron/main/app-fixture.ts', "import { x } from './services/bulk/run/run-rows'\n")).toEqual(
      [],
    )
  })

  it('is part of what npm run lint runs, as an error', async () => {
    const scripts = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts as Record<string, string>
    expect(scripts.lint).toBe('eslint .')
    const config = await new ESLint({ cwd: ROOT }).calculateConfigForFile(
      join(ROOT, 'electron/main/services/team/team-release.ts'),
    )
    expect(config.rules[RULE]).toEqual([2])
  })
})
