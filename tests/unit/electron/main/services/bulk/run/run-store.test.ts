/** The run folder's files: rows.json written in slices reads back exactly; saves of a file never overlap. */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { rowsFromImport } from '../../../../../../../electron/main/services/bulk/run/run-rows'
import { RunStore } from '../../../../../../../electron/main/services/bulk/run/run-store'
import type { RunState } from '../../../../../../../electron/main/services/bulk/run/run-store'
import { sheetOf } from './harness'

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'run-store-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('run store', () => {
  it('writes rows.json a slice at a time and reads back exactly what was written, whatever the count', async () => {
    const store = new RunStore(dir)
    for (const count of [0, 1, 999, 1000, 1001, 2500]) {
      const rows = rowsFromImport(sheetOf(count))
      if (rows[0]) rows[0].resolvedName = 'Ünïcode "quoted" name'
      await store.saveRows('run', rows)
      expect(JSON.parse(await readFile(join(dir, 'run', 'rows.json'), 'utf8'))).toEqual(rows)
    }
  })

  it('saves of one file asked for while one waits are joined, and the last asked for is what is written', async () => {
    const store = new RunStore(dir)
    const rows = rowsFromImport(sheetOf(3000))
    const saves = [store.saveRows('run', rows.slice(0, 1000)), store.saveRows('run', rows.slice(0, 2000))]
    saves.push(store.saveRows('run', rows))
    await Promise.all(saves)
    expect(JSON.parse(await readFile(join(dir, 'run', 'rows.json'), 'utf8'))).toHaveLength(3000)
    const state = { version: 1, id: 'run', stage: 'review', batches: [] } as unknown as RunState
    await Promise.all([store.saveState(state), store.saveState({ ...state, stage: 'submitting' })])
    expect(JSON.parse(await readFile(join(dir, 'run', 'state.json'), 'utf8'))).toMatchObject({ stage: 'submitting' })
    // One line: a run's state is rewritten once a second while it is sent, its batches naming every row.
    expect((await readFile(join(dir, 'run', 'state.json'), 'utf8')).trimEnd().split('\n')).toHaveLength(1)
    // No temporary file is left behind.
    expect((await readdir(join(dir, 'run'))).sort()).toEqual(['rows.json', 'state.json'])
  })
})
