/**
 * The Node.js version the project needs (decision 68), said the same way everywhere a newcomer
 * reads it: package.json's engines (what npm ci warns about), the README, the line the start
 * scripts print on an older Node.js, and .nvmrc (what the CI workflow installs).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { nodeVersionProblem } from '../../../scripts/start.mjs'

const ROOT = join(__dirname, '../../..')
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8')

describe('the Node.js version the project needs', () => {
  const engines = (JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node
  const needed = /^>=(\d+)\.(\d+)\.0$/.exec(engines)

  it('is a floor in engines, named in the README and in the start scripts refusal, and .nvmrc meets it', () => {
    expect(needed, engines).not.toBeNull()
    const [, major, minor] = needed!
    expect(read('README.md')).toContain(`[Node.js](https://nodejs.org) ${major}.${minor} or later`)
    expect(nodeVersionProblem('18.20.4')).toContain(`needs Node.js ${major}.${minor} or later`)
    expect(Number(read('.nvmrc').trim())).toBeGreaterThanOrEqual(Number(major))
  })
})
