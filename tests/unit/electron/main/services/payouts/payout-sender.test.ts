/**
 * Sending single payouts against the simulator over real HTTP, with each fault it can inject: an
 * unclear answer is "unknown" (never "failed"), verification by reference settles it, a resend
 * happens only after the service said it has no such payout and reuses the reference, and the
 * simulator ends with exactly one payout per reference.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startSandbox } from '../../../../../../electron/sandbox'
import type { RunningSandbox } from '../../../../../../electron/sandbox'
import { createPaymentsApi } from '../../../../../../electron/main/services/api'
import { createPaymentsClient } from '../../../../../../electron/main/services/api/payments-client'
import type { RateLimitNotice } from '../../../../../../electron/main/services/api/payments-client'
import { openJournal } from '../../../../../../electron/main/services/journal/journal'
import type { Journal } from '../../../../../../electron/main/services/journal/journal'
import {
  createPayoutSender,
  createPayoutVerifier,
} from '../../../../../../electron/main/services/payouts/payout-sender'
import { createPayoutWatcher } from '../../../../../../electron/main/services/payouts/payout-watcher'
import type { ProfileApi } from '../../../../../../electron/main/services/service-context'
import type { MovementView } from '../../../../../../shared/domain/journal'
import type { PayoutBody } from '../../../../../../shared/domain/payouts'

const SECRET = 'sk_test_payout_sender_0123456789abcdef'
const SETTLE_MS = 60
let sandbox: RunningSandbox
let directory: string
let journal: Journal
let rateLimits: RateLimitNotice[]

beforeAll(async () => {
  sandbox = await startSandbox({
    port: 0,
    secretKey: SECRET,
    encryptionKey: '0123456789abcdef0123456789abcdef',
    settleMs: SETTLE_MS,
    admin: true,
  })
})
afterAll(() => sandbox.close())
beforeEach(async () => {
  await admin('POST', '/__sandbox/reset')
  directory = await mkdtemp(join(tmpdir(), 'payout-sender-'))
  journal = await openJournal(directory)
  rateLimits = []
})
afterEach(async () => {
  await journal.close()
  await rm(directory, { recursive: true, force: true })
})

async function admin(method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${sandbox.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  expect(response.ok).toBe(true)
  return response.json()
}

const injectFault = (fault: Record<string, unknown>) => admin('POST', '/__sandbox/faults', fault)

/** How many payouts with this reference the simulator holds, from its own history. */
async function payoutsAtService(reference: string): Promise<number> {
  const page = (await admin('GET', '/merchant/api/v1/payouts?limit=100')) as { data: Array<{ reference: string }> }
  return page.data.filter((item) => item.reference === reference).length
}

function apiFor(options: { timeoutMs?: number; baseUrl?: string } = {}) {
  return async (): Promise<ProfileApi> => ({
    profileId: 'test-profile',
    mode: 'test',
    api: createPaymentsApi(
      createPaymentsClient({
        baseUrl: options.baseUrl ?? sandbox.url,
        secretKey: SECRET,
        timeoutMs: options.timeoutMs ?? 5000,
        onRateLimited: (notice) => rateLimits.push(notice),
        sleep: () => Promise.resolve(),
      }),
    ),
  })
}

let counter = 0
function body(overrides: Partial<PayoutBody['destination']> = {}): PayoutBody {
  counter += 1
  return {
    reference: `SENDER-${Date.now()}-${counter}`,
    destination: {
      type: 'bank_account',
      amount: '1500.50',
      currency: 'NGN',
      narration: 'Invoice 42',
      bank_account: { bank: '044', account: '0123456789' },
      customer: { name: 'Ada Obi', email: 'ada@example.com' },
      ...overrides,
    },
    metadata: { invoice: 'INV-42' },
  }
}

const settle = () => new Promise((done) => setTimeout(done, SETTLE_MS * 3))

/** Verifies and journals the way the app does (through the watcher's "Verify now"). */
async function verifyNow(reference: string, options: { timeoutMs?: number } = {}): Promise<MovementView> {
  const watcher = createPayoutWatcher({
    journal,
    verifier: createPayoutVerifier(apiFor(options)),
    onChange: () => {},
    onFinal: () => {},
  })
  try {
    return await watcher.verifyNow(reference)
  } finally {
    await watcher.close()
  }
}

const states = (movement: MovementView) => movement.timeline.flatMap((event) => (event.state ? [event.state] : []))

describe('sending a payout', () => {
  it('journals the intent before the request leaves, then sent, then processing with the fee', async () => {
    const seen: string[] = []
    const payout = body()
    const sender = createPayoutSender({
      journal,
      apiFor: apiFor(),
      now: () => new Date(),
      hooks: {
        afterIntent: async (reference) => {
          seen.push(`intent:${journal.get(reference)?.state}`)
          expect(await payoutsAtService(reference)).toBe(0)
        },
        afterAnswer: async (reference) => void seen.push(`answer:${journal.get(reference)?.state}`),
      },
    })
    const movement = await sender.send(payout)
    expect(seen).toEqual(['intent:recorded', 'answer:sent'])
    expect(movement).toMatchObject({ reference: payout.reference, kind: 'payout', state: 'processing' })
    expect(movement.profileId).toBe('test-profile')
    expect(movement.profileMode).toBe('test')
    expect(states(movement)).toEqual(['recorded', 'sent', 'processing'])
    expect(movement.timeline.at(-1)?.data).toMatchObject({ amount: '1500.50', fee: '15.01', currency: 'NGN' })
    // The body journaled is the body sent, amount still an exact decimal string.
    expect(movement.request).toEqual(payout)

    await settle()
    const verified = await verifyNow(payout.reference)
    expect(verified.state).toBe('success')
    expect(verified.timeline.at(-1)?.data?.['trace_id']).toMatch(/^\d{30}$/)
    expect(await payoutsAtService(payout.reference)).toBe(1)
  })

  it('refuses a reference this desk already used, sending nothing', async () => {
    const sender = createPayoutSender({ journal, apiFor: apiFor(), now: () => new Date() })
    const payout = body()
    await sender.send(payout)
    await expect(
      sender.send({ ...payout, destination: { ...payout.destination, amount: '2.00' } }),
    ).rejects.toMatchObject({
      code: 'conflict',
    })
    expect(await payoutsAtService(payout.reference)).toBe(1)
  })

  it('marks a clear refusal failed, with the service’s reason in plain words', async () => {
    await admin('POST', '/__sandbox/balances', { currency: 'NGN', amount: '10.00' })
    const sender = createPayoutSender({ journal, apiFor: apiFor(), now: () => new Date() })
    const movement = await sender.send(body())
    expect(movement.state).toBe('failed')
    expect(movement.timeline.at(-1)?.note).toContain('Insufficient balance')
  })
})

describe('an unclear answer is unknown, verified by reference, never paid twice', () => {
  it('after-accept 5xx: unknown, then verified success, one payout at the service', async () => {
    await injectFault({ path: '/merchant/api/v1/transactions/disburse', kind: 'after-accept', status: 503 })
    const sender = createPayoutSender({ journal, apiFor: apiFor(), now: () => new Date() })
    const payout = body()
    const movement = await sender.send(payout)
    expect(movement.state).toBe('unknown')
    expect(movement.timeline.at(-1)?.note).toMatch(/may have been accepted/)
    await expect(sender.resend(payout.reference)).rejects.toMatchObject({ code: 'conflict' })

    await settle()
    const verified = await verifyNow(payout.reference)
    expect(verified.state).toBe('success')
    expect(verified.lastVerification).toBe('found')
    expect(await payoutsAtService(payout.reference)).toBe(1)
    await expect(sender.resend(payout.reference)).rejects.toMatchObject({ code: 'conflict' })
    expect(await payoutsAtService(payout.reference)).toBe(1)
  })

  it('hang: no answer within the timeout is unknown, then verified', async () => {
    await injectFault({ path: '/merchant/api/v1/transactions/disburse', kind: 'hang' })
    const sender = createPayoutSender({ journal, apiFor: apiFor({ timeoutMs: 300 }), now: () => new Date() })
    const payout = body()
    const movement = await sender.send(payout)
    expect(movement.state).toBe('unknown')
    expect(movement.timeline.at(-1)?.note).toMatch(/No answer from the payments service within 300 ms/)

    const verified = await verifyNow(payout.reference)
    // The hanging request did nothing at the service: it is absent, and may be sent again.
    expect(verified.lastVerification).toBe('absent')
    expect(verified.state).toBe('unknown')
  })

  it('reset: a dropped connection is unknown, then verified', async () => {
    await injectFault({ path: '/merchant/api/v1/transactions/disburse', kind: 'reset' })
    const sender = createPayoutSender({ journal, apiFor: apiFor(), now: () => new Date() })
    const payout = body()
    const movement = await sender.send(payout)
    expect(movement.state).toBe('unknown')
    expect(movement.timeline.at(-1)?.note).toMatch(/connection to the payments service broke/)
    const verified = await verifyNow(payout.reference)
    expect(verified.lastVerification).toBe('absent')
    expect(await payoutsAtService(payout.reference)).toBe(0)
  })

  it('before-accept 5xx: unknown, verified absent, sent again with the same reference, then success', async () => {
    await injectFault({ path: '/merchant/api/v1/transactions/disburse', kind: 'before-accept', status: 502 })
    const sender = createPayoutSender({ journal, apiFor: apiFor(), now: () => new Date() })
    const payout = body()
    expect((await sender.send(payout)).state).toBe('unknown')
    // Not before verification has said "absent".
    await expect(sender.resend(payout.reference)).rejects.toMatchObject({ code: 'conflict' })

    const verified = await verifyNow(payout.reference)
    expect(verified).toMatchObject({ state: 'unknown', lastVerification: 'absent' })
    expect(await payoutsAtService(payout.reference)).toBe(0)

    const resent = await sender.resend(payout.reference)
    expect(resent.reference).toBe(payout.reference)
    expect(resent.state).toBe('processing')
    expect(states(resent)).toEqual(['recorded', 'sent', 'unknown', 'sent', 'processing'])
    await settle()
    expect((await verifyNow(payout.reference)).state).toBe('success')
    expect(await payoutsAtService(payout.reference)).toBe(1)
    // Final: never again.
    await expect(sender.resend(payout.reference)).rejects.toMatchObject({ code: 'conflict' })
  })

  it('a resend asks once more first, and does not send when the payout turned up meanwhile', async () => {
    await injectFault({ path: '/merchant/api/v1/transactions/disburse', kind: 'before-accept' })
    const sender = createPayoutSender({ journal, apiFor: apiFor(), now: () => new Date() })
    const payout = body()
    await sender.send(payout)
    await verifyNow(payout.reference)
    // Someone else (another desk with the same key) sends the same reference before our resend.
    await admin('POST', '/merchant/api/v1/transactions/disburse', {
      ...payout,
      destination: { ...payout.destination, amount: 1500.5 },
    })
    const after = await sender.resend(payout.reference)
    expect(after.state).toBe('processing')
    expect(after.timeline.at(-1)?.note).toMatch(/^Not sent again/)
    expect(await payoutsAtService(payout.reference)).toBe(1)
  })

  it('not-json: a clear message to check the base URL, and the payout stays unknown', async () => {
    await injectFault({ path: '/merchant/api/v1/transactions/disburse', kind: 'not-json' })
    const sender = createPayoutSender({ journal, apiFor: apiFor(), now: () => new Date() })
    const payout = body()
    const movement = await sender.send(payout)
    expect(movement.state).toBe('unknown')
    expect(movement.timeline.at(-1)?.note).toMatch(/Unexpected response from the service: check the base URL/)
    // The simulator's not-json answer comes from a gateway that never passed the request on.
    expect(await verifyNow(payout.reference)).toMatchObject({ state: 'unknown', lastVerification: 'absent' })
    expect(await payoutsAtService(payout.reference)).toBe(0)
  })
})

describe('the send policy on a single payout', () => {
  it('a duplicate-reference answer is "exists": unknown, verified by reference, never failed', async () => {
    await injectFault({ path: '/merchant/api/v1/transactions/disburse', kind: 'duplicate' })
    const sender = createPayoutSender({ journal, apiFor: apiFor(), now: () => new Date() })
    const payout = body()
    const movement = await sender.send(payout)
    expect(movement.state).toBe('unknown')
    expect(movement.timeline.at(-1)?.note).toMatch(
      /already has a payout with this reference \(Duplicate payout reference\)/,
    )
    const verified = await verifyNow(payout.reference)
    expect(verified).toMatchObject({ state: 'processing', lastVerification: 'found' })
    expect(await payoutsAtService(payout.reference)).toBe(1)
  })

  it('a 429 waits for Retry-After and sends the same request again, journaled, then it is accepted', async () => {
    await injectFault({ path: '/merchant/api/v1/transactions/disburse', kind: 'rate-limit', ms: 2000, count: 2 })
    const waits: number[] = []
    const sender = createPayoutSender({
      journal,
      apiFor: apiFor(),
      now: () => new Date(),
      sleep: async (ms) => void waits.push(ms),
    })
    const payout = body()
    const movement = await sender.send(payout)
    expect(movement.state).toBe('processing')
    expect(waits).toEqual([2000, 2000])
    expect(movement.timeline.filter((event) => /limiting requests.*same reference/.test(event.note))).toHaveLength(2)
    expect(await payoutsAtService(payout.reference)).toBe(1)
  })

  it('429s past the bound are a refusal: failed, nothing paid', async () => {
    await injectFault({ path: '/merchant/api/v1/transactions/disburse', kind: 'rate-limit', count: 10 })
    const sender = createPayoutSender({ journal, apiFor: apiFor(), now: () => new Date(), sleep: async () => {} })
    const payout = body()
    const movement = await sender.send(payout)
    expect(movement.state).toBe('failed')
    expect(movement.timeline.at(-1)?.note).toMatch(/Not taken by the payments service.*Nothing was sent/)
    expect(await payoutsAtService(payout.reference)).toBe(0)
    await admin('DELETE', '/__sandbox/faults')
  })

  it('a double click on Send sends once, and both clicks get the payout', async () => {
    await injectFault({ path: '/merchant/api/v1/transactions/disburse', kind: 'latency', ms: 150 })
    const sender = createPayoutSender({ journal, apiFor: apiFor(), now: () => new Date() })
    const payout = body()
    const [first, second] = await Promise.all([sender.send(payout), sender.send(payout)])
    expect(second).toEqual(first)
    expect(first.state).toBe('processing')
    expect(states(first)).toEqual(['recorded', 'sent', 'processing'])
    expect(await payoutsAtService(payout.reference)).toBe(1)
  })

  it('a second Send again while the first is in flight does nothing', async () => {
    await injectFault({ path: '/merchant/api/v1/transactions/disburse', kind: 'before-accept' })
    const sender = createPayoutSender({ journal, apiFor: apiFor(), now: () => new Date() })
    const payout = body()
    await sender.send(payout)
    await verifyNow(payout.reference)
    await injectFault({ path: '/merchant/api/v1/transactions/disburse', kind: 'latency', ms: 150 })
    const [first, second] = await Promise.all([sender.resend(payout.reference), sender.resend(payout.reference)])
    expect(second).toEqual(first)
    expect(states(first)).toEqual(['recorded', 'sent', 'unknown', 'sent', 'processing'])
    expect(await payoutsAtService(payout.reference)).toBe(1)
  })
})

describe('verification by reference', () => {
  it('waits out a rate limit on the read and says so', async () => {
    const sender = createPayoutSender({ journal, apiFor: apiFor(), now: () => new Date() })
    const payout = body()
    await sender.send(payout)
    await injectFault({ path: '/merchant/api/v1/transactions/', kind: 'rate-limit', ms: 2000 })
    const outcome = await createPayoutVerifier(apiFor())(journal.get(payout.reference)!)
    expect(outcome.found).toMatch(/processing|success/)
    expect(rateLimits).toEqual([
      { retryAfterSeconds: 2, where: `GET /merchant/api/v1/transactions/${payout.reference}` },
    ])
  })

  it('an unreadable answer while verifying says "check the base URL" and stays unknown', async () => {
    const sender = createPayoutSender({ journal, apiFor: apiFor(), now: () => new Date() })
    const payout = body()
    await sender.send(payout)
    await injectFault({ path: '/merchant/api/v1/transactions/', kind: 'not-json' })
    const outcome = await createPayoutVerifier(apiFor())(journal.get(payout.reference)!)
    expect(outcome.found).toBe('unknown')
    expect(outcome.note).toMatch(/Unexpected response from the service: check the base URL/)
  })

  it('a 404 from a wrong base URL is "cannot say", never "absent"', async () => {
    const sender = createPayoutSender({ journal, apiFor: apiFor(), now: () => new Date() })
    const payout = body()
    await sender.send(payout)
    const outcome = await createPayoutVerifier(apiFor({ baseUrl: `${sandbox.url}/wrong-prefix` }))(
      journal.get(payout.reference)!,
    )
    expect(outcome.found).toBe('unknown')
  })

  it('the watcher follows a processing payout to success and announces it once', async () => {
    const sender = createPayoutSender({ journal, apiFor: apiFor(), now: () => new Date() })
    const payout = body()
    await sender.send(payout)
    const finals: MovementView[] = []
    const changes: MovementView[] = []
    const done = new Promise<void>((resolve) => {
      const watcher = createPayoutWatcher({
        journal,
        verifier: createPayoutVerifier(apiFor()),
        onChange: (movement) => changes.push(movement),
        onFinal: (movement) => {
          finals.push(movement)
          void watcher.close().then(resolve)
        },
        delays: { firstMs: 20, maxMs: 80 },
      })
      watcher.watch(payout.reference)
    })
    await done
    expect(finals).toHaveLength(1)
    expect(finals[0]?.state).toBe('success')
    expect(changes.at(-1)?.state).toBe('success')
    // Still-processing answers are not journaled: only the change to success is.
    expect(journal.get(payout.reference)?.timeline.filter((event) => event.verification)).toHaveLength(1)
  })

  it('the watcher follows a failing payout to failed with the service’s reason', async () => {
    const sender = createPayoutSender({ journal, apiFor: apiFor(), now: () => new Date() })
    const payout = body({ bank_account: { bank: '044', account: '9999999999' } })
    await sender.send(payout)
    const final = await new Promise<MovementView>((resolve) => {
      const watcher = createPayoutWatcher({
        journal,
        verifier: createPayoutVerifier(apiFor()),
        onChange: () => {},
        onFinal: (movement) => void watcher.close().then(() => resolve(movement)),
        delays: { firstMs: 20, maxMs: 80 },
      })
      watcher.watch(payout.reference)
    })
    expect(final.state).toBe('failed')
    expect(final.timeline.at(-1)?.note).toContain('Beneficiary account is dormant')
  })
})
