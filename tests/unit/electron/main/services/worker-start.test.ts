/**
 * Where main's workers are started from (decision 122): the built file beside the module in the
 * built app; from source, the build in out/main only while nothing it is built from changed since
 * (an old build would run old code), else the TypeScript source through tsx.
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startWorker, workerCode } from '../../../../../electron/main/services/worker-start'

let root: string
// After the folders were made: a folder's own time is a change too (a source removed from it).
const base = Date.now() + 60_000
const at = (seconds: number) => new Date(base + seconds * 1000)

function write(path: string, text: string, time: Date): string {
  const file = join(root, path)
  mkdirSync(join(file, '..'), { recursive: true })
  writeFileSync(file, text)
  utimesSync(file, time, time)
  return file
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'worker-start-'))
  write('electron/main/services/x/x-worker.ts', 'source', at(0))
  write('shared/money.ts', 'source', at(0))
  write('package.json', '{}', at(0))
  write('electron.vite.config.ts', '', at(0))
})
afterEach(() => {
  delete process.env.PAYOUT_DESK_WORKERS_FROM_SOURCE
  rmSync(root, { recursive: true, force: true })
})

const entry = () => ({
  built: 'x-worker',
  source: join(root, 'electron/main/services/x/x-worker.ts'),
  from: join(root, 'electron/main/services/x'),
})

describe('a worker started from source', () => {
  it('runs the source through tsx when nothing is built', () => {
    expect(workerCode(entry(), root)).toEqual({ source: entry().source })
  })

  it('runs the build in out/main while it is newer than every file it is built from', () => {
    const built = write('out/main/x-worker.js', 'built', at(10))
    expect(workerCode(entry(), root)).toEqual({ file: built })
  })

  it('runs the source again once any file under electron/main or shared changed after the build', () => {
    write('out/main/x-worker.js', 'built', at(10))
    write('shared/deep/er/rule.ts', 'changed', at(20))
    expect(workerCode(entry(), root)).toEqual({ source: entry().source })
  })

  it('runs the source when package.json changed after the build (new dependencies)', () => {
    write('out/main/x-worker.js', 'built', at(10))
    write('package.json', '{"changed":true}', at(11))
    expect(workerCode(entry(), root)).toEqual({ source: entry().source })
  })

  it('runs the source when PAYOUT_DESK_WORKERS_FROM_SOURCE=1, whatever is built', () => {
    write('out/main/x-worker.js', 'built', at(10))
    process.env.PAYOUT_DESK_WORKERS_FROM_SOURCE = '1'
    expect(workerCode(entry(), root)).toEqual({ source: entry().source })
  })
})

describe('a worker in the built app', () => {
  it('runs the built file beside the module that starts it, as electron-vite bundles them', () => {
    const beside = write('app/out/main/x-worker.js', 'built', at(0))
    write('shared/later.ts', 'changed', at(50))
    expect(workerCode({ ...entry(), from: join(root, 'app/out/main') }, root)).toEqual({ file: beside })
  })

  it('starts the worker from the file it found, with the options given', async () => {
    const from = join(root, 'app/out/main')
    write(
      'app/out/main/x-worker.js',
      "const { parentPort, workerData } = require('node:worker_threads'); parentPort.postMessage(workerData * 2)",
      at(0),
    )
    const worker = startWorker({ ...entry(), from }, { workerData: 21 })
    try {
      await expect(new Promise((resolve) => worker.once('message', resolve))).resolves.toBe(42)
    } finally {
      await worker.terminate()
    }
  })
})
