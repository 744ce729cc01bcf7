/**
 * Inside a reader's worker (decision 113): whether a file just read left anything behind that the
 * next file would meet. Taken once when the worker starts, checked after every job; the worker is
 * kept for another file only when this says it is clean.
 *
 * - The built-in prototypes and constructors a parser touches are as they were: the same own
 *   properties with the same values, getters and setters (a file that reached `__proto__` or
 *   replaced a method leaves its mark here).
 * - The global object has the same own names.
 * - The heap in use (and what its buffers hold outside it) is back near where it was: a file that made the reader allocate (every limit on
 *   content, rows, columns or inflation is hit after the reader has allocated) ends the worker,
 *   so its next file starts with the whole heap the limit gives a fresh worker.
 */
import { getHeapStatistics } from 'node:v8'

/** Heap in use after a job, above what the worker used when it started, that still counts as clean. */
export const CLEAN_HEAP_GROWTH_MB = 64

const GUARDED: readonly object[] = [
  Object,
  Object.prototype,
  Array,
  Array.prototype,
  Function.prototype,
  String,
  String.prototype,
  Number.prototype,
  Boolean.prototype,
  Symbol.prototype,
  BigInt.prototype,
  Date.prototype,
  RegExp.prototype,
  Error.prototype,
  Promise.prototype,
  Map.prototype,
  Set.prototype,
  WeakMap.prototype,
  JSON,
  Math,
  Reflect,
  Uint8Array.prototype,
  Object.getPrototypeOf(Uint8Array.prototype) as object,
  ArrayBuffer.prototype,
  DataView.prototype,
  TextDecoder.prototype,
  Buffer,
  Buffer.prototype,
]

type Shape = Map<PropertyKey, readonly unknown[]>

function shapeOf(target: object): Shape {
  const shape: Shape = new Map()
  for (const key of Reflect.ownKeys(target)) {
    const d = Object.getOwnPropertyDescriptor(target, key)
    if (d) shape.set(key, [d.value, d.get, d.set, d.writable, d.enumerable, d.configurable])
  }
  return shape
}

function sameShape(before: Shape, after: Shape): boolean {
  if (before.size !== after.size) return false
  for (const [key, was] of before) {
    const now = after.get(key)
    if (!now || now.some((part, i) => !Object.is(part, was[i]))) return false
  }
  return true
}

/** The heap in use and the memory its buffers hold outside it (a file's bytes, inflated parts), MB. */
const usedHeapMb = (): number => {
  const heap = getHeapStatistics() as ReturnType<typeof getHeapStatistics> & { external_memory?: number }
  return (heap.used_heap_size + (heap.external_memory ?? 0)) / 1024 / 1024
}

export interface WorkerHealth {
  /** Whether the worker is as it was when it started (see above), so it may read another file. */
  clean(): boolean
}

/** Takes the worker's baseline now: call once, when its modules are loaded and before any job. */
export function watchWorkerHealth(): WorkerHealth {
  const shapes = GUARDED.map(shapeOf)
  const globalNames = new Set(Reflect.ownKeys(globalThis))
  const baseHeapMb = usedHeapMb()
  return {
    clean() {
      if (!GUARDED.every((target, i) => sameShape(shapes[i]!, shapeOf(target)))) return false
      const names = Reflect.ownKeys(globalThis)
      if (names.length !== globalNames.size || names.some((name) => !globalNames.has(name))) return false
      return usedHeapMb() - baseHeapMb <= CLEAN_HEAP_GROWTH_MB
    },
  }
}
