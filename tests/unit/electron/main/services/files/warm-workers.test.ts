/**
 * The readers' warm worker (decision 113): kept for the next file only after a job that ended as
 * the reader meant and left the worker clean; ended after anything else, after its share of files,
 * and after its idle time. And the worker's own check that a file left nothing behind.
 */
import { Worker } from 'node:worker_threads'
import { afterEach, describe, expect, it } from 'vitest'
import { createWarmWorkers, watchWorkerHealth } from '../../../../../../electron/main/services/files'

const started: Worker[] = []
const start = (): Worker => {
  const worker = new Worker('require("node:worker_threads").parentPort.on("message", () => undefined)', { eval: true })
  started.push(worker)
  return worker
}
const ended = (worker: Worker): Promise<boolean> =>
  Promise.race([
    new Promise<boolean>((resolve) => worker.once('exit', () => resolve(true))),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 2_000)),
  ])

afterEach(async () => {
  await Promise.all(started.splice(0).map((worker) => worker.terminate()))
})

describe('warm reader workers', () => {
  it('a clean job keeps its worker for the next one; a job that was not clean ends it', async () => {
    const workers = createWarmWorkers(start, { maxJobs: 10, idleMs: 60_000 })
    const first = workers.take()
    workers.giveBack(first, true)
    expect(workers.take()).toBe(first)
    workers.giveBack(first, false)
    expect(await ended(first)).toBe(true)
    const second = workers.take()
    expect(second).not.toBe(first)
    expect(workers.started).toBe(2)
  })

  it('reads at the same time each get their own worker, and only one is kept', async () => {
    const workers = createWarmWorkers(start, { maxJobs: 10, idleMs: 60_000 })
    const [one, two] = [workers.take(), workers.take()]
    expect(one).not.toBe(two)
    workers.giveBack(one, true)
    workers.giveBack(two, true)
    expect(await ended(two)).toBe(true)
    expect(workers.take()).toBe(one)
  })

  it('a worker is ended after its share of files', async () => {
    const workers = createWarmWorkers(start, { maxJobs: 3, idleMs: 60_000 })
    const worker = workers.take()
    for (let job = 2; job <= 3; job++) {
      workers.giveBack(worker, true)
      expect(workers.take()).toBe(worker)
    }
    workers.giveBack(worker, true)
    expect(await ended(worker)).toBe(true)
    expect(workers.take()).not.toBe(worker)
  })

  it('an idle worker is ended after its idle time, and one that dies while kept is not given out', async () => {
    const workers = createWarmWorkers(start, { maxJobs: 10, idleMs: 200 })
    const idle = workers.take()
    workers.giveBack(idle, true)
    expect(await ended(idle)).toBe(true)
    expect(workers.take()).not.toBe(idle)

    const kept = createWarmWorkers(start, { maxJobs: 10, idleMs: 60_000 })
    const dying = kept.take()
    kept.giveBack(dying, true)
    await dying.terminate()
    expect(kept.take()).not.toBe(dying)
  })
})

describe("a reader worker's own check", () => {
  it('is clean until a prototype, a built-in method or a global changes, and again once it is restored', () => {
    const health = watchWorkerHealth()
    expect(health.clean()).toBe(true)
    const proto = Object.prototype as Record<string, unknown>
    proto['polluted'] = 'yes'
    expect(health.clean()).toBe(false)
    delete proto['polluted']
    expect(health.clean()).toBe(true)
    const map = Array.prototype.map
    Array.prototype.map = function () {
      return []
    }
    expect(health.clean()).toBe(false)
    Array.prototype.map = map
    const global = globalThis as Record<string, unknown>
    global['leftOver'] = 1
    expect(health.clean()).toBe(false)
    delete global['leftOver']
    expect(health.clean()).toBe(true)
  })

  it('is not clean while a file left the heap much fuller than it started', () => {
    const health = watchWorkerHealth()
    // About 100 MB of strings on the heap, then as much again in buffers outside it.
    const strings = Array.from({ length: 1_000_000 }, (_, i) => `${'cell '.repeat(10)}${i}`)
    expect(health.clean()).toBe(false)
    strings.length = 0
    const heldOutside = Array.from({ length: 100 }, () => Buffer.alloc(1024 * 1024, 1))
    expect(health.clean()).toBe(false)
    heldOutside.length = 0
  })
})
