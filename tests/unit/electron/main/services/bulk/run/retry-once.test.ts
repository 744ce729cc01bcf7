/**
 * A double payment once found, and what made it possible (decision 14): a retry run saved in two writes (a
 * kill between them left an unmarked run holding the -R1 references), nothing stopping a second
 * retry of the same run, and a batch whose payouts the service already had ("Duplicate payout
 * reference") marked failed, so that "Retry failed rows" paid them again as -R2. Each is tested as
 * a person meets it: pressing Retry twice, a double click, a restart, a crash inside the retry.
 */
import { spawn } from 'node:child_process'
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { nodeArgsFor } from '../../../../../../support/child-bundles'
import { startSandbox, type RunningSandbox } from '../../../../../../../electron/sandbox'
import { csvBytes, openHarness, sandboxAdmin, sheetOf, simulatorPayouts, type Harness } from './harness'

const KEY = 'sk_test_retry_once'
const CHILD = join(__dirname, 'kill-child.ts')
let sandbox: RunningSandbox
let dir: string
let harness: Harness | undefined
let warnings: string[]

beforeEach(async () => {
  sandbox = await startSandbox({
    secretKey: KEY,
    encryptionKey: 'retry-once-test-encryption-key-3',
    settleMs: 150,
    admin: true,
  })
  dir = await mkdtemp(join(tmpdir(), 'bulk-retry-'))
  warnings = []
})
afterEach(async () => {
  await harness?.close()
  harness = undefined
  await sandbox.close()
  await rm(dir, { recursive: true, force: true })
})

async function open() {
  harness = await openHarness({
    userDataDir: dir,
    sandboxUrl: sandbox.url,
    secretKey: KEY,
    onWarning: (message) => warnings.push(message),
  })
  await harness.reconciler.run()
  await harness.service.resumeAll()
  return harness
}

/** A run of `count` rows sent to the end, whose rows in `failing` failed at the bank (a bank down for a while). */
async function runWithFailures(count: number, failing: number[], tag = 'T') {
  const { service } = harness ?? (await open())
  const sheet = sheetOf(count, new Set(failing), tag)
  const run = await service.create({ result: sheet, bytes: csvBytes(sheet), currency: 'NGN' })
  await service.toReview(run.id)
  await service.submit(run.id)
  await service.idle()
  expect(service.view(run.id)).toMatchObject({ stage: 'completed', counts: { failed: failing.length } })
  return run.id
}

/** The payouts the service holds for each row of the sheet, by the row's own reference. */
async function paymentsPerRow(): Promise<Map<string, string[]>> {
  const paid = (await simulatorPayouts(sandbox.url, KEY)).filter((p) => p.status !== 'failed')
  const perRow = new Map<string, string[]>()
  for (const payout of paid) {
    const row = payout.reference.replace(/-R\d+$/, '')
    perRow.set(row, [...(perRow.get(row) ?? []), payout.reference])
  }
  return perRow
}

describe('Retry failed rows, once', () => {
  it('a second "Retry failed rows" on the same run opens the retry run that exists', async () => {
    const { service } = await open()
    const original = await runWithFailures(4, [1, 2])
    const first = await service.retryFailed(original)
    const second = await service.retryFailed(original)
    expect(second.id).toBe(first.id)
    expect(service.list().filter((run) => run.retryOf === original)).toHaveLength(1)
    expect(service.view(original)).toMatchObject({ retriedBy: first.id })
  })

  it('two at once (a double click) make one retry run', async () => {
    const { service } = await open()
    const original = await runWithFailures(4, [0, 3])
    const [a, b] = await Promise.all([service.retryFailed(original), service.retryFailed(original)])
    expect(a.id).toBe(b.id)
    expect(service.list()).toHaveLength(2)
  })

  it('after a restart, "Retry failed rows" finds the retry run by what it retries', async () => {
    const { service } = await open()
    const original = await runWithFailures(3, [1])
    const retry = await service.retryFailed(original)
    await harness!.close()
    const reopened = await open()
    expect(reopened.service.view(retry.id)).toMatchObject({ retryOf: original, stage: 'review' })
    expect((await reopened.service.retryFailed(original)).id).toBe(retry.id)
    expect(reopened.service.list()).toHaveLength(2)
  })

  it('the chain of that double payment: rows whose references the service already holds are never failed, so never paid again', async () => {
    const { service } = await open()
    // A sheet sent and paid; then the same sheet again (imported twice, or a second retry run of old).
    const sheet = sheetOf(5, new Set(), 'DUP')
    const paidRun = await service.create({ result: sheet, bytes: csvBytes(sheet), currency: 'NGN' })
    await service.toReview(paidRun.id)
    await service.submit(paidRun.id)
    await service.idle()
    const again = await service.create({ result: sheet, bytes: csvBytes(sheet), currency: 'NGN' })
    await service.toReview(again.id)
    await service.submit(again.id)
    await service.idle()
    // The service answered "Duplicate payout reference": each row shows the payout its reference names.
    const view = service.view(again.id)
    expect(view.counts).toMatchObject({ failed: 0, success: 5 })
    expect(service.rows(again.id).map((row) => row.status)).toEqual(Array(5).fill('success'))
    await expect(service.retryFailed(again.id)).rejects.toThrow(/No row of this run has failed/)
    for (const references of (await paymentsPerRow()).values()) expect(references).toHaveLength(1)
  })
})

function runChild(env: Record<string, string>): Promise<{ out: string; err: string; signal: string | null }> {
  const child = spawn(process.execPath, nodeArgsFor(CHILD), {
    env: { ...process.env, USER_DATA: dir, SANDBOX_URL: sandbox.url, SANDBOX_KEY: KEY, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  let err = ''
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()))
  return new Promise((resolve) => child.on('exit', (_code, signal) => resolve({ out, err, signal })))
}

/** Every file and folder under the runs folder that is not a whole run's own. */
async function leftovers(): Promise<string[]> {
  const root = join(dir, 'bulk-runs')
  const found: string[] = []
  for (const name of await readdir(root)) {
    if (name.startsWith('.') || name.endsWith('.tmp')) found.push(name)
    else for (const file of await readdir(join(root, name))) if (file.endsWith('.tmp')) found.push(`${name}/${file}`)
  }
  return found
}

it('a batch refused because some of its payouts exist: those rows follow them, the others are not sent and may be retried', async () => {
  const { service } = await open()
  const four = sheetOf(4, new Set(), 'PART')
  const two = { ...four, rows: 2, valid: 2, items: four.items.slice(0, 2) }
  const first = await service.create({ result: two, bytes: csvBytes(two), currency: 'NGN' })
  await service.toReview(first.id)
  await service.submit(first.id)
  await service.idle()
  // The whole sheet, two of whose rows the service already holds.
  const whole = await service.create({ result: four, bytes: csvBytes(four), currency: 'NGN' })
  await service.toReview(whole.id)
  await service.submit(whole.id)
  await service.idle()
  const shown = (runId: string) => service.rows(runId).map((row) => [row.item.reference, row.status, row.message])
  expect(shown(whole.id)).toEqual([
    ['PART-row-000001', 'success', 'Payout successful'],
    ['PART-row-000002', 'success', 'Payout successful'],
    ['PART-row-000003', 'failed', expect.stringMatching(/^Not sent: .*already exist/)],
    ['PART-row-000004', 'failed', expect.stringMatching(/^Not sent: .*already exist/)],
  ])
  expect(service.view(whole.id).batches.map((batch) => batch.state)).toEqual(['complete'])
  // After a restart the desk shows the same.
  const before = shown(whole.id)
  await harness!.close()
  const reopened = await open()
  expect(reopened.service.rows(whole.id).map((row) => [row.item.reference, row.status, row.message])).toEqual(before)
  // The rows that were not sent are retried; every row of the sheet is paid once.
  const retry = await reopened.service.retryFailed(whole.id)
  await reopened.service.submit(retry.id)
  await reopened.service.idle()
  expect(reopened.service.view(retry.id).counts).toMatchObject({ success: 2, failed: 0 })
  const perRow = await paymentsPerRow()
  expect([...perRow.keys()].sort()).toEqual(four.items.map((item) => item.reference))
  for (const references of perRow.values()) expect(references).toHaveLength(1)
})

describe('a double click on Send or Check again', () => {
  it('sends each batch once, and both clicks get the run', async () => {
    const sent: string[] = []
    harness = await openHarness({
      userDataDir: dir,
      sandboxUrl: sandbox.url,
      secretKey: KEY,
      wrapApi: (api) => ({
        ...api,
        bulk: { ...api.bulk, initiate: (body) => (sent.push(body.batch_reference), api.bulk.initiate(body)) },
      }),
    })
    const { service } = harness
    const sheet = sheetOf(60, new Set(), 'CLICK')
    const run = await service.create({ result: sheet, bytes: csvBytes(sheet), currency: 'NGN' })
    await service.toReview(run.id)
    const [a, b] = await Promise.all([service.submit(run.id), service.submit(run.id)])
    expect(a.id).toBe(b.id)
    // And once more after it is under way: the run being sent, nothing more.
    expect((await service.submit(run.id)).stage).not.toBe('review')
    await service.idle()
    expect(sent).toHaveLength(2)
    expect(new Set(sent).size).toBe(2)
    expect(service.view(run.id).counts.success).toBe(60)
  })

  it('"Check again" pressed twice checks once', async () => {
    const sent: string[] = []
    const looked: string[] = []
    harness = await openHarness({
      userDataDir: dir,
      sandboxUrl: sandbox.url,
      secretKey: KEY,
      wrapApi: (api) => ({
        ...api,
        bulk: {
          ...api.bulk,
          initiate: (body) => (sent.push(body.batch_reference), api.bulk.initiate(body)),
          batch: (reference) => (looked.push(reference), api.bulk.batch(reference)),
        },
      }),
    })
    const { service } = harness
    // The batch is taken but its answer lost, and the service cannot be asked about it for a while.
    await sandboxAdmin(sandbox.url, KEY, 'POST', '/__sandbox/faults', {
      path: '/api/v1/transactions/disburse/bulk',
      kind: 'after-accept',
    })
    await sandboxAdmin(sandbox.url, KEY, 'POST', '/__sandbox/faults', {
      path: '/api/v1/transactions/bulk/',
      kind: 'before-accept',
      count: 6,
    })
    const sheet = sheetOf(3, new Set(), 'RECHECK')
    const run = await service.create({ result: sheet, bytes: csvBytes(sheet), currency: 'NGN' })
    await service.toReview(run.id)
    await service.submit(run.id)
    await service.idle()
    expect(service.view(run.id).stage).toBe('attention')
    await sandboxAdmin(sandbox.url, KEY, 'DELETE', '/__sandbox/faults')
    looked.length = 0
    const [a, b] = await Promise.all([service.recheck(run.id), service.recheck(run.id)])
    expect(b.id).toBe(a.id)
    await service.idle()
    expect(sent).toHaveLength(1)
    expect(service.view(run.id)).toMatchObject({ stage: 'completed', counts: { success: 3 } })
    // One check found the batch; the monitor then followed it.
    expect(looked.length).toBeGreaterThanOrEqual(1)
    for (const references of (await paymentsPerRow()).values()) expect(references).toHaveLength(1)
  })
})

describe('a crash inside the creation of a run', () => {
  it('SIGKILL inside "Retry failed rows" leaves no unmarked run; Retry again opens or makes exactly one', async () => {
    await open()
    const original = await runWithFailures(4, [0, 2], 'CRASH')
    await harness!.close()
    harness = undefined

    const killed = await runChild({ ACTION: 'retry', RUN_ID: original, KILL_AT: 'retry:run-written' })
    expect(killed.out).toContain('KILLED retry:run-written')
    expect(killed.signal).toBe('SIGKILL')

    const { service } = await open()
    // Every run is either the original or a retry run marked as one: none holds -R1 references unmarked.
    for (const run of service.list())
      if (run.id !== original) expect(run.retryOf, `run ${run.id} holds retry references`).toBe(original)
    const retry = await service.retryFailed(original)
    expect(service.list().filter((run) => run.id !== original)).toEqual([
      expect.objectContaining({ id: retry.id, retryOf: original }),
    ])
    expect(await leftovers()).toEqual([])
    expect(warnings).toEqual([])
  })

  it('SIGKILL inside an import leaves the run whole or absent, and nothing half-written at later starts', async () => {
    const killed = await runChild({ ACTION: 'import', ROWS: '120', KILL_AT: 'import:run-written' })
    expect(killed.out).toContain('KILLED import:run-written')
    const { service } = await open()
    expect(service.list()).toEqual([])
    expect(warnings).toEqual([])
    expect(await leftovers()).toEqual([])
    await harness!.close()
    // A later start sees nothing either, and says nothing about unreadable runs.
    await open()
    expect(warnings).toEqual([])
  })
})

it('a row failed at the bank keeps its own reason after a restart', async () => {
  const { service } = await open()
  await sandboxAdmin(sandbox.url, KEY, 'POST', '/__sandbox/faults', {
    path: '/api/v1/transactions/disburse/bulk',
    kind: 'bank-down',
  })
  const sheet = sheetOf(3, new Set(), 'DOWN')
  const run = await service.create({ result: sheet, bytes: csvBytes(sheet), currency: 'NGN' })
  await service.toReview(run.id)
  await service.submit(run.id)
  await service.idle()
  expect(service.rows(run.id).map((row) => row.message)).toEqual(Array(3).fill('Beneficiary bank is unavailable'))
  await harness!.close()
  const reopened = await open()
  await reopened.service.idle()
  expect(reopened.service.rows(run.id).map((row) => [row.status, row.message])).toEqual(
    Array(3).fill(['failed', 'Beneficiary bank is unavailable']),
  )
})
