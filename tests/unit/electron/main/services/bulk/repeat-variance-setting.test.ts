import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  RepeatVarianceSetting,
  normalisedPercent,
} from '../../../../../../electron/main/services/bulk/repeat-variance-setting'

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'repeat-variance-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe("the variance review's percentage, per profile (decision 130)", () => {
  it('is 20 until set, kept per profile across a restart, and written as people read it', async () => {
    const setting = new RepeatVarianceSetting(dir)
    await setting.load()
    expect(setting.percentOf('sandbox')).toBe('20')
    expect(await setting.set('sandbox', ' 12.50 ')).toBe('12.5')
    expect(await setting.set('live-1', '35')).toBe('35')
    const again = new RepeatVarianceSetting(dir)
    await again.load()
    expect([again.percentOf('sandbox'), again.percentOf('live-1'), again.percentOf('other')]).toEqual([
      '12.5',
      '35',
      '20',
    ])
  })

  it('refuses what is not a percentage, saying what it takes, and keeps the one set', async () => {
    const setting = new RepeatVarianceSetting(dir)
    await setting.set('sandbox', '15')
    for (const bad of ['', 'abc', '0', '-5', '12.345', '1000.01'])
      await expect(setting.set('sandbox', bad)).rejects.toThrow(
        /is not a percentage: give a number above 0 and up to 1000/,
      )
    expect(setting.percentOf('sandbox')).toBe('15')
    expect(normalisedPercent('1000')).toBe('1000')
    expect(normalisedPercent('7.05')).toBe('7.05')
  })

  it('reads an unreadable file as no setting', async () => {
    await writeFile(join(dir, 'repeat-variance.json'), '{ not json')
    const setting = new RepeatVarianceSetting(dir)
    await setting.load()
    expect(setting.percentOf('sandbox')).toBe('20')
    await setting.set('sandbox', '25')
    expect(JSON.parse(await readFile(join(dir, 'repeat-variance.json'), 'utf8'))).toEqual({
      profiles: [['sandbox', '25']],
    })
  })
})
