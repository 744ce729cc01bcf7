/**
 * Crash and resume: the process doing a run is killed with SIGKILL at random moments (during the
 * name checks, the submission or the monitoring), restarted each time on the same user-data folder
 * against a simulator that lives in this test process, and in the end the simulator is asked that
 * every row was paid exactly once and none is lost. The kills aimed at the submission land as a
 * batch request leaves, and the test asserts that they did land while it was in flight (between
 * the journaled intent and the answer). CRASH_KILLS sets how many kills (default 8; a longer soak:
 * CRASH_KILLS=100).
 */
import { spawn } from 'node:child_process'
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { nodeArgsFor } from '../../../../../../support/child-bundles'
import { startSandbox, type RunningSandbox } from '../../../../../../../electron/sandbox'
import { openJournal } from '../../../../../../../electron/main/services/journal/journal'
import { sandboxAdmin, sheetOf, simulatorPayouts } from './harness'

const KEY = 'sk_test_crash_resume'
const ROWS = 240
const KILLS = Number(process.env.CRASH_KILLS ?? 8)
const CHILD = join(__dirname, 'crash-child.ts')

let sandbox: RunningSandbox
let dir: string

beforeAll(async () => {
  sandbox = await startSandbox({
    secretKey: KEY,
    encryptionKey: 'crash-resume-encryption-key-32by',
    settleMs: 400,
    admin: true,
  })
  dir = await mkdtemp(join(tmpdir(), 'bulk-crash-'))
  // Slow the bulk endpoints a little so that kills land inside submission and monitoring too.
  await sandboxAdmin(sandbox.url, KEY, 'POST', '/__sandbox/faults', {
    path: '/api/v1/',
    kind: 'latency',
    ms: 120,
    count: 10_000,
  })
})
afterAll(async () => {
  await sandbox.close()
  await rm(dir, { recursive: true, force: true })
})

async function stageOnDisk(): Promise<string> {
  try {
    const [run] = await readdir(join(dir, 'bulk-runs'))
    if (!run) return 'none'
    const state = JSON.parse(await readFile(join(dir, 'bulk-runs', run, 'state.json'), 'utf8')) as { stage: string }
    return state.stage
  } catch {
    return 'none'
  }
}

/** The steps a kill is aimed at, in turn; the kill lands at a random moment after the step shows. */
const TARGETS = ['resolving', 'submitting', 'monitoring'] as const

/** A run's stages in the order it passes them (as state.json names them). */
const STAGES = ['none', 'resolving', 'review', 'submitting', 'monitoring', 'completed']

/** Batch requests that left and whose answer never came back: the kill landed mid-send. */
function inFlightAtKill(out: string): string[] {
  const open = new Set<string>()
  for (const line of out.split('\n')) {
    const [event, reference] = line.split(' ')
    if (event === 'SEND-START' && reference) open.add(reference)
    if (event === 'SEND-END' && reference) open.delete(reference)
  }
  return [...open]
}

function startChild(): {
  reached(stage: string): Promise<void>
  sending(): Promise<void>
  exit: Promise<{ code: number | null; signal: string | null; out: string; err: string }>
  kill(): void
} {
  const child = spawn(process.execPath, nodeArgsFor(CHILD), {
    env: { ...process.env, USER_DATA: dir, SANDBOX_URL: sandbox.url, SANDBOX_KEY: KEY, ROWS: String(ROWS) },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  let err = ''
  const waiting: Array<{ stage: string; resolve: () => void }> = []
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString()
    for (const wait of waiting) if (out.includes(`STAGE ${wait.stage}`)) wait.resolve()
  })
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()))
  return {
    reached: (stage) =>
      new Promise<void>((resolve) => {
        waiting.push({ stage, resolve })
        if (out.includes(`STAGE ${stage}`)) resolve()
      }),
    // The next batch request leaving (the child prints SEND-START as it does).
    sending: () =>
      new Promise<void>((resolve) => {
        const seen = (out.match(/SEND-START/g) ?? []).length
        const check = (): void => {
          if ((out.match(/SEND-START/g) ?? []).length > seen) resolve()
          else if (child.exitCode === null && child.signalCode === null) setTimeout(check, 2)
        }
        check()
      }),
    exit: new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal, out, err }))),
    kill: () => child.kill('SIGKILL'),
  }
}

describe('a bulk run killed at random moments', () => {
  it(`pays every row exactly once after ${KILLS} SIGKILLs and restarts, kills landing mid-send`, async () => {
    let finishedEarly = false
    const stagesAtKill: string[] = []
    let killedMidSend = 0
    for (let kill = 0; kill < KILLS && !finishedEarly; kill++) {
      // The kills are spread over the steps in order (a third each), at a random moment of each;
      // during the submission, as a batch request leaves (so it lands between intent and answer).
      // A run already past its planned step (the last kill landed late) is killed in the step it is
      // in: a restart never shows a step it has passed, and the kill would never come.
      const planned = TARGETS[Math.min(TARGETS.length - 1, Math.floor((kill * TARGETS.length) / KILLS))]!
      const onDisk = STAGES.indexOf(await stageOnDisk())
      const target =
        TARGETS.find((step) => STAGES.indexOf(step) >= Math.max(onDisk, STAGES.indexOf(planned))) ?? planned
      const child = startChild()
      let timer: ReturnType<typeof setTimeout> | undefined
      // (A submission whose last batch has left moves on to the monitoring: the kill lands there.)
      if (target === 'submitting')
        void Promise.race([child.sending().then(() => 40), child.reached('monitoring').then(() => 400)]).then(
          (within) => (timer = setTimeout(() => child.kill(), Math.floor(Math.random() * within))),
        )
      else
        void child.reached(target).then(() => (timer = setTimeout(() => child.kill(), Math.floor(Math.random() * 400))))
      const result = await child.exit
      clearTimeout(timer)
      if (result.signal === 'SIGKILL' && inFlightAtKill(result.out).length > 0) killedMidSend++
      stagesAtKill.push(await stageOnDisk())
      if (result.code !== null) {
        expect(result.err).toBe('')
        expect(result.code).toBe(0)
        finishedEarly = true
      }
    }
    if (!finishedEarly) {
      const last = await startChild().exit
      expect(last.err).toBe('')
      expect(last.code).toBe(0)
      expect(last.out).toMatch(/DONE BR/)
    }

    // Where the kills landed: the stages are random by design (for the record); kills aimed at the
    // submission must have landed while a batch request was in flight, between intent and answer.
    console.info(
      `crash-resume: stages on disk after each kill: ${stagesAtKill.join(', ')}; ${killedMidSend} kills mid-send`,
    )
    expect(killedMidSend).toBeGreaterThanOrEqual(1)
    const expected = sheetOf(ROWS, new Set(), 'CRASH').items.map((i) => i.reference)
    const paid = await simulatorPayouts(sandbox.url, KEY)
    const references = paid.map((p) => p.reference)
    expect(references.length).toBe(ROWS)
    expect([...references].sort()).toEqual([...expected].sort())
    expect(
      paid
        .filter((p) => p.status === 'failed')
        .map((p) => p.reference)
        .sort(),
    ).toEqual(['CRASH-row-000004', `CRASH-row-${String(ROWS - 1).padStart(6, '0')}`].sort())

    // The journal holds every batch of the run, each final.
    const journal = await openJournal(join(dir, 'journal'))
    try {
      const batches = journal.list({ kind: 'bulk_batch' })
      expect(batches).toHaveLength(5)
      expect(batches.every((b) => b.state === 'success')).toBe(true)
    } finally {
      await journal.close()
    }
  }, 300_000)
})
