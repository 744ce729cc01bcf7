/**
 * A single payout under the limits, in main, over the simulator (decision 127): one that fits is
 * sent; one that would break a limit is refused before its intent is journaled, with the limit's
 * words; a payout whose outcome is unknown counts as sent, a failed one does not; two sends that
 * start together cannot both take the last room under a limit; a rehearsal does not use Live's.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startSandbox } from '../../../../../../electron/sandbox'
import type { RunningSandbox } from '../../../../../../electron/sandbox'
import { createBridgeDesktop } from '../../../../../../electron/main/adapters/bridge-desktop'
import { createPaymentsApi } from '../../../../../../electron/main/services/api'
import { createPaymentsClient } from '../../../../../../electron/main/services/api/payments-client'
import { openJournal } from '../../../../../../electron/main/services/journal/journal'
import type { Journal } from '../../../../../../electron/main/services/journal/journal'
import { createReconciler } from '../../../../../../electron/main/services/journal/reconciler'
import { createRedactingLog } from '../../../../../../electron/main/services/log/redacting-log'
import { createControlsStore, createLimitGate } from '../../../../../../electron/main/services/limits'
import type { ControlsStore } from '../../../../../../electron/main/services/limits'
import { createPayoutDomain } from '../../../../../../electron/main/services/payouts/payouts-domain'
import { createSettingsStore } from '../../../../../../electron/main/services/settings/settings-store'
import type { ServiceContext } from '../../../../../../electron/main/services/service-context'
import type { PayoutBody } from '../../../../../../shared/domain/payouts'

const SECRET = 'sk_test_payout_limits_0123456789abcdef'
let sandbox: RunningSandbox
let directory: string
let journal: Journal
let controls: ControlsStore
let mode: 'test' | 'live'

beforeAll(async () => {
  sandbox = await startSandbox({
    port: 0,
    secretKey: SECRET,
    encryptionKey: '0123456789abcdef0123456789abcdef',
    settleMs: 40,
    admin: true,
  })
})
afterAll(() => sandbox.close())

async function admin(path: string, body: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${sandbox.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  expect(response.ok).toBe(true)
}
const injectFault = (fault: Record<string, unknown>) => admin('/__sandbox/faults', fault)

beforeEach(async () => {
  await fetch(`${sandbox.url}/__sandbox/reset`, { method: 'POST', headers: { authorization: `Bearer ${SECRET}` } })
  directory = await mkdtemp(join(tmpdir(), 'payout-limits-'))
  journal = await openJournal(directory)
  controls = createControlsStore(createSettingsStore(directory, 'sandbox'), () => new Date())
  await controls.load()
  mode = 'live'
})
afterEach(async () => {
  await journal.close()
  await rm(directory, { recursive: true, force: true })
})

function domain() {
  const context: ServiceContext = {
    userDataDir: directory,
    log: createRedactingLog(),
    emit: () => {},
    profiles: {} as ServiceContext['profiles'],
    apiFor: async (profileId) => ({
      profileId: profileId ?? 'acme',
      mode,
      api: createPaymentsApi(createPaymentsClient({ baseUrl: sandbox.url, secretKey: SECRET })),
    }),
    journal,
    reconciler: createReconciler(journal),
    desktop: createBridgeDesktop(),
    now: () => new Date(),
  }
  const gate = createLimitGate({ journal, controls, now: context.now })
  return createPayoutDomain(context, {
    delays: { firstMs: 60_000, maxMs: 60_000 },
    limits: { gate, failedPayouts: async () => () => new Set() },
  })
}

function body(reference: string, amount: string, bank = '044'): PayoutBody {
  return {
    reference,
    destination: {
      type: 'bank_account',
      amount,
      currency: 'NGN',
      bank_account: { bank, account: '0123456789' },
      customer: { email: 'ada@example.com' },
    },
  }
}

async function setDailyTotal(value: string): Promise<void> {
  await controls.setLimits(
    'acme',
    { rules: [{ kind: 'daily_total', currency: 'NGN', value }], hours: null, timeZone: 'UTC' },
    'ada',
  )
}

describe('a single payout under the limits', () => {
  it('is sent up to the daily total exactly, and the next is refused before its intent is journaled', async () => {
    await setDailyTotal('5000')
    const payouts = domain()
    const send = payouts.handlers['payouts:send']
    mode = 'test' // the Sandbox-like rehearsal: its own count
    await send({ body: body('PD-LIM-T1', '4999.99') })
    mode = 'live'
    await send({ body: body('PD-LIM-01', '3000.00'), confirmAmount: '3000.00' })
    await send({ body: body('PD-LIM-02', '2000.00'), confirmAmount: '2000.00' })
    await expect(send({ body: body('PD-LIM-03', '0.01'), confirmAmount: '0.01' })).rejects.toMatchObject({
      code: 'bad_request',
      message:
        'The payout was not sent: Daily total for NGN is 5,000.00; 5,000.00 was already sent today; this payout would add 0.01.',
    })
    expect(journal.has('PD-LIM-03')).toBe(false)
    await payouts.close?.()
  })

  it('counts a payout whose outcome is unknown as sent, and a failed one not', async () => {
    await setDailyTotal('5000')
    const payouts = domain()
    const send = payouts.handlers['payouts:send']
    // Refused by the service: failed, nothing paid, not counted.
    await admin('/__sandbox/balances', { currency: 'NGN', amount: '10.00' })
    const refused = await send({ body: body('PD-LIM-F1', '4000.00'), confirmAmount: '4000.00' })
    expect(refused.state).toBe('failed')
    await admin('/__sandbox/balances', { currency: 'NGN', amount: '100000000.00' })
    // The service answers 503 after taking it: unknown, verified later, counted now.
    await injectFault({ path: '/merchant/api/v1/transactions/disburse', kind: 'after-accept', status: 503 })
    const unknown = await send({ body: body('PD-LIM-U1', '3000.00'), confirmAmount: '3000.00' })
    expect(unknown.state).toBe('unknown')
    await expect(send({ body: body('PD-LIM-U2', '2000.01'), confirmAmount: '2000.01' })).rejects.toMatchObject({
      message: expect.stringContaining('3,000.00 was already sent today; this payout would add 2,000.01.'),
    })
    await payouts.close?.()
  })

  it('lets only one of two sends that start together take the last room', async () => {
    await setDailyTotal('5000')
    const payouts = domain()
    const send = payouts.handlers['payouts:send']
    const answers = await Promise.allSettled([
      send({ body: body('PD-LIM-R1', '3000.00'), confirmAmount: '3000.00' }),
      send({ body: body('PD-LIM-R2', '3000.00'), confirmAmount: '3000.00' }),
    ])
    expect(answers.map((answer) => answer.status).sort()).toEqual(['fulfilled', 'rejected'])
    expect(journal.list({ kind: 'payout' })).toHaveLength(1)
    await payouts.close?.()
  })
})
