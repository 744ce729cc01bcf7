/**
 * Never pay twice (decisions 13, 14): a process sending payouts is killed with SIGKILL between the journal write
 * and the send, and after the send (the service answered, the answer not yet journaled). A
 * restarted process reconciles against the simulator and sends again only what verification found
 * absent: the simulator ends with exactly one payout per intent, none lost and none doubled.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startSandbox } from '../../../../../../electron/sandbox'
import type { RunningSandbox } from '../../../../../../electron/sandbox'
import { openJournal } from '../../../../../../electron/main/services/journal/journal'
import { startChild } from './fixtures/child'

const SECRET = 'sk_test_payout_crash_0123456789abcdef'
const CHILD = 'payout-crash-child.ts'
let sandbox: RunningSandbox
let directory: string

beforeAll(async () => {
  sandbox = await startSandbox({
    port: 0,
    secretKey: SECRET,
    encryptionKey: '0123456789abcdef0123456789abcdef',
    settleMs: 50,
    admin: true,
  })
  directory = await mkdtemp(join(tmpdir(), 'payout-crash-'))
})
afterAll(async () => {
  await sandbox.close()
  await rm(directory, { recursive: true, force: true })
})

/** The children inherit the environment: the key goes there, not on the command line. */
function child(args: string[]) {
  return startChild(CHILD, [directory, sandbox.url, ...args])
}

async function simulator(path: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${sandbox.url}${path}`, { headers: { authorization: `Bearer ${SECRET}` } })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

/** Every payout the simulator holds, by reference, and how many times each appears. */
async function payoutsAtSimulator(): Promise<Map<string, number>> {
  const { body } = await simulator('/merchant/api/v1/payouts?limit=100')
  const counts = new Map<string, number>()
  for (const item of body['data'] as Array<{ reference: string }>) {
    counts.set(item.reference, (counts.get(item.reference) ?? 0) + 1)
  }
  return counts
}

it('SIGKILL between the journal write and the send, and after the send: reconciled, none lost, none doubled', async () => {
  process.env['PAYOUT_CRASH_SECRET'] = SECRET
  const runs: Array<{ reference: string; stop: 'after-intent' | 'after-answer' | 'none' }> = [
    { reference: 'crash-ok-1', stop: 'none' },
    { reference: 'crash-before-send-1', stop: 'after-intent' },
    { reference: 'crash-after-send-1', stop: 'after-answer' },
    { reference: 'crash-before-send-2', stop: 'after-intent' },
    { reference: 'crash-after-send-2', stop: 'after-answer' },
    { reference: 'crash-ok-2', stop: 'none' },
  ]
  for (const run of runs) {
    const sender = child(['send', run.reference, run.stop])
    if (run.stop === 'none') {
      expect(await sender.waitFor('sent ')).toBe(`sent ${run.reference} processing`)
      expect((await sender.ended).code).toBe(0)
      continue
    }
    expect(await sender.waitFor('stopped ')).toBe(`stopped ${run.reference}`)
    await sender.kill9()
    const atSimulator = (await simulator(`/merchant/api/v1/transactions/${run.reference}`)).status
    // Killed before the send: nothing left the machine. After the send: the service has it.
    expect(atSimulator, run.reference).toBe(run.stop === 'after-intent' ? 404 : 200)
  }

  // What the dead processes left: every intent on disk, the crashed ones still open.
  const left = await openJournal(directory)
  const states = Object.fromEntries(left.list().map((movement) => [movement.reference, movement.state]))
  await left.close()
  expect(states).toEqual({
    'crash-ok-1': 'processing',
    'crash-before-send-1': 'recorded',
    'crash-after-send-1': 'sent',
    'crash-before-send-2': 'recorded',
    'crash-after-send-2': 'sent',
    'crash-ok-2': 'processing',
  })

  // The restarted process: reconcile, then send again only what the service does not have.
  const restart = child(['reconcile'])
  const report = JSON.parse((await restart.waitFor('report ')).slice('report '.length)) as {
    items: Array<{ reference: string; before: string; after: string; verification?: string }>
    resent: string[]
    states: Record<string, string>
  }
  expect((await restart.ended).code).toBe(0)
  expect(report.items).toHaveLength(6)
  const checked = Object.fromEntries(report.items.map((item) => [item.reference, item]))
  expect(checked['crash-before-send-1']).toMatchObject({ before: 'recorded', after: 'unknown', verification: 'absent' })
  expect(checked['crash-after-send-1']).toMatchObject({ before: 'sent', verification: 'found' })
  expect(['processing', 'success']).toContain(checked['crash-after-send-1']!.after)
  expect(report.resent.sort()).toEqual(['crash-before-send-1', 'crash-before-send-2'])

  const atSimulator = await payoutsAtSimulator()
  const intents = runs.map((run) => run.reference).sort()
  expect([...atSimulator.keys()].sort()).toEqual(intents)
  expect([...atSimulator.values()].every((count) => count === 1)).toBe(true)

  // Once settled, a second restart finds every payout paid and sends nothing again.
  await new Promise((resolve) => setTimeout(resolve, 200))
  const second = child(['reconcile'])
  const again = JSON.parse((await second.waitFor('report ')).slice('report '.length)) as typeof report
  expect(again.resent).toEqual([])
  expect(Object.values(again.states)).toEqual(Array(6).fill('success'))
  for (const reference of intents) {
    const { body } = await simulator(`/merchant/api/v1/transactions/${reference}`)
    expect((body['data'] as { status: string }).status.toLowerCase(), reference).toBe('success')
  }
  expect((await payoutsAtSimulator()).size).toBe(intents.length)
}, 600_000)
