/**
 * One warm worker per reader of files a person hands over (decision 113): the file reader and the
 * bulk importer start their worker once and give it the next file, instead of a worker per file
 * (decision 100). A person opening several files in a row waits for one start, not one per file.
 *
 * A worker is given back after each job, and kept only when the job ended as the reader meant it
 * to (a result or the reader's own refusal, never a crash, an out-of-memory, a cancel or a limit
 * hit) and the worker itself found nothing of the file left in it (reader-worker-health.ts). Else
 * it is ended, and the next file gets a fresh one. It is ended too after READER_WORKER_POLICY's
 * number of files and after its idle time, so a long session never runs on an old worker and an
 * idle desk holds no reader. At most one worker is kept; reads at the same time each get their own.
 */
import type { Worker } from 'node:worker_threads'

export interface WarmWorkerPolicy {
  /** Files one worker reads before it is ended (and the next file starts a fresh one). */
  maxJobs: number
  /** How long an idle worker waits for the next file before it is ended, ms. */
  idleMs: number
}

export const READER_WORKER_POLICY: WarmWorkerPolicy = { maxJobs: 25, idleMs: 30_000 }

export interface WarmWorkers {
  /** A worker for one job: the one kept from the last job if there is one, else a new one. */
  take(): Worker
  /**
   * The job on `worker` ended. `reusable`: it ended as the reader meant and the worker says it is
   * clean; the worker is then kept for the next job (unless one is kept already or it has read its
   * share). Otherwise, or then, it is ended.
   */
  giveBack(worker: Worker, reusable: boolean): void
  /** Workers started so far (what the tests count). */
  readonly started: number
}

export function createWarmWorkers(start: () => Worker, policy: WarmWorkerPolicy = READER_WORKER_POLICY): WarmWorkers {
  let kept: { worker: Worker; timer: NodeJS.Timeout } | null = null
  const jobsRead = new WeakMap<Worker, number>()
  let started = 0

  const drop = (worker: Worker): void => {
    if (kept?.worker === worker) {
      clearTimeout(kept.timer)
      kept = null
    }
  }

  return {
    take() {
      if (kept) {
        const { worker } = kept
        drop(worker)
        worker.ref()
        jobsRead.set(worker, (jobsRead.get(worker) ?? 0) + 1)
        return worker
      }
      const worker = start()
      started++
      jobsRead.set(worker, 1)
      // A kept worker that fails or stops while it waits is simply not kept; a job's own listeners
      // report what happens during a job.
      worker.on('error', () => drop(worker))
      worker.on('exit', () => drop(worker))
      return worker
    },
    giveBack(worker, reusable) {
      if (!reusable || kept !== null || (jobsRead.get(worker) ?? policy.maxJobs) >= policy.maxJobs) {
        void worker.terminate()
        return
      }
      // A waiting worker keeps neither the app nor a test process alive.
      worker.unref()
      const timer = setTimeout(() => {
        drop(worker)
        void worker.terminate()
      }, policy.idleMs)
      timer.unref()
      kept = { worker, timer }
    },
    get started() {
      return started
    },
  }
}
