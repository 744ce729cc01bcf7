/**
 * A period reconciled against a real Sandbox over HTTP with the desk's own client (decision 118):
 * payouts the desk sent match; one made from elsewhere with the same key is at the service only;
 * one whose fee the service changed differs; one the desk journaled but that never arrived is
 * "ours only" after a verify by reference, and one that cannot be verified stays unverified. The
 * history is read page by page (pages of 2 here, to page for real), a second look is cached.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startSandbox } from '../../../../../../electron/sandbox'
import type { RunningSandbox } from '../../../../../../electron/sandbox'
import { createPaymentsApi } from '../../../../../../electron/main/services/api'
import { createPaymentsClient } from '../../../../../../electron/main/services/api/payments-client'
import type { MovementView } from '../../../../../../shared/domain/journal'
import { ourPayoutsOf } from '../../../../../../electron/main/services/reconciliation/our-records'
import { createPeriodReader } from '../../../../../../electron/main/services/reconciliation/period-reader'
import { reconcileWithVerifies } from '../../../../../../electron/main/services/reconciliation/reconcile-period'
import { exceptionsOf } from '../../../../../../shared/reconciliation/period-match'

const KEY = 'sk_test_reconcile'
let sandbox: RunningSandbox
beforeEach(async () => {
  sandbox = await startSandbox({
    secretKey: KEY,
    encryptionKey: 'reconcile-test-encryption-key-32',
    settleMs: 50,
    admin: true,
  })
})
afterEach(() => sandbox.close())

const body = (reference: string, amount: number) => ({
  reference,
  destination: {
    type: 'bank_account',
    amount,
    currency: 'NGN',
    narration: 'October',
    bank_account: { bank: '044', account: '0123456789' },
    customer: { name: `Payee ${reference}`, email: 'p@example.com' },
  },
})

async function admin(path: string, json: unknown) {
  const answer = await fetch(`${sandbox.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(json),
  })
  expect(answer.status).toBe(200)
}

/** A journaled single payout as the desk keeps it, with the service's answer when it had one. */
function movement(reference: string, amount: string, state: MovementView['state'], fee?: string): MovementView {
  const at = new Date().toISOString()
  return {
    reference,
    kind: 'payout',
    profileId: 'p1',
    profileMode: 'test',
    request: { reference, destination: { amount, currency: 'NGN', customer: { name: `Payee ${reference}` } } },
    state,
    createdAt: at,
    updatedAt: at,
    timeline: [
      { seq: 1, at, state: 'recorded', note: 'Recorded' },
      { seq: 2, at, state: 'sent', note: 'Sent' },
      ...(fee
        ? [{ seq: 3, at, state: 'processing' as const, note: 'Accepted', data: { fee, amount, currency: 'NGN' } }]
        : []),
    ],
  }
}

/** A payout whose intent was journaled (fsynced) when the desk was killed, before its request left. */
function killedBeforeSend(reference: string, amount: string): MovementView {
  const journaled = movement(reference, amount, 'recorded')
  return { ...journaled, timeline: journaled.timeline.slice(0, 1) }
}

/** The same after the restart: the start-up reconciler asked the service, which has no such payout. */
function verifiedAbsentAfterRestart(reference: string, amount: string): MovementView {
  const journaled = killedBeforeSend(reference, amount)
  const at = new Date().toISOString()
  return {
    ...journaled,
    state: 'unknown',
    lastVerification: 'absent',
    timeline: [
      ...journaled.timeline,
      {
        seq: 2,
        at,
        state: 'unknown',
        note: 'The payments service has no payout with this reference.',
        verification: 'absent',
      },
    ],
  }
}

describe('reconciling a period with the service', () => {
  it('classes every payout, alerts on the one nobody here sent, verifies before "ours only", and caches the pages it read', async () => {
    const api = createPaymentsApi(createPaymentsClient({ baseUrl: sandbox.url, secretKey: KEY }))
    const from = Date.now() - 60_000
    for (const [reference, amount] of [
      ['REC-0001', 1000],
      ['REC-0002', 2000],
      ['REC-0003', 3000],
    ] as const)
      await api.payouts.disburse(body(reference, amount) as never)
    await admin('/__sandbox/payouts/elsewhere', body('ELSEWHERE-0001', 250000))
    await admin('/__sandbox/payouts/REC-0003/fee', { fee: '99.00' })
    await new Promise((resolve) => setTimeout(resolve, 200))
    const to = Date.now() + 1_000

    const movements = [
      movement('REC-0001', '1000.00', 'success', '10.00'),
      movement('REC-0002', '2000.00', 'success', '20.00'),
      movement('REC-0003', '3000.00', 'success', '30.00'),
      // Sent, no clear answer, and the service never had it.
      movement('REC-0004', '4000.00', 'unknown'),
      // Journaled, then the desk was killed before the request left and nothing has verified it yet:
      // a payment the business recorded and meant, asked about by reference like any other (decision 153).
      killedBeforeSend('REC-0005', '5000.00'),
    ]
    const ours = ourPayoutsOf(movements, { profileId: 'p1', mode: 'test', currency: 'NGN', from, to })
    expect(ours.map((o) => o.reference)).toEqual(['REC-0001', 'REC-0002', 'REC-0003', 'REC-0004', 'REC-0005'])

    const reader = createPeriodReader({ now: () => new Date(to + 60_000), pageSize: 2 })
    const progress: number[] = []
    const period = { profileId: 'p1', mode: 'test', currency: 'NGN' as const, from, to }
    const read = await reader.read(api.history, period, (p) => progress.push(p.pages), new AbortController().signal)
    expect(read!.cached).toBe(false)
    expect(read!.payouts.map((p) => p.reference).sort()).toEqual(['ELSEWHERE-0001', 'REC-0001', 'REC-0002', 'REC-0003'])
    // Four payouts in pages of two: both pages read, progress after each.
    expect(progress).toEqual([1, 2])

    const result = await reconcileWithVerifies(api, read!.payouts, ours, {
      now: () => new Date(),
      signal: new AbortController().signal,
    })
    const states = Object.fromEntries(result.lines.map((line) => [line.reference, line.state]))
    expect(states).toEqual({
      'ELSEWHERE-0001': 'service_only',
      'REC-0001': 'matched',
      'REC-0002': 'matched',
      'REC-0003': 'differs',
      'REC-0004': 'ours_only',
      'REC-0005': 'ours_only',
    })
    expect(result.lines.find((l) => l.reference === 'REC-0003')!.differences).toEqual([
      { field: 'fee', service: '99.00', ours: '30.00' },
    ])
    expect(result.lines.find((l) => l.reference === 'REC-0004')!.verify!.note).toBe(
      'The service has no payout REC-0004 (asked by reference).',
    )
    expect(result.lines.find((l) => l.reference === 'REC-0005')!.verify).toMatchObject({
      found: 'absent',
      note: 'The service has no payout REC-0005 (asked by reference).',
    })
    expect(exceptionsOf(result)).toHaveLength(4)
    const ngn = result.totals[0]!
    expect(ngn.states.service_only).toEqual({ count: 1, amount: '250000.00' })
    expect(ngn.states.ours_only).toEqual({ count: 2, amount: '9000.00' })
    // What the service charged for what it paid: 10 + 20 + 99 + 1,000 (the Sandbox's cap on 1%).
    expect(ngn.fees).toBe('1129.00')

    // A second look reads nothing: the period is cached.
    const again = await reader.read(api.history, period, () => undefined, new AbortController().signal)
    expect(again).toMatchObject({ cached: true, pages: 0 })
  })

  it('a verify the service cannot answer leaves the record unverified, never "ours only"; a cancel stops between pages', async () => {
    const broken = createPaymentsApi(createPaymentsClient({ baseUrl: `${sandbox.url}/nowhere`, secretKey: KEY }))
    const from = Date.now() - 60_000
    const to = Date.now() + 60_000
    const ours = ourPayoutsOf([movement('REC-0009', '10.00', 'unknown')], {
      profileId: 'p1',
      mode: 'test',
      currency: 'NGN',
      from,
      to,
    })
    const result = await reconcileWithVerifies(broken, [], ours, {
      now: () => new Date(),
      signal: new AbortController().signal,
    })
    expect(result.lines.map((l) => [l.reference, l.state])).toEqual([['REC-0009', 'unverified']])
    expect(result.lines[0]!.verify!.note).toMatch(/^Could not be verified now/)

    const cancelled = new AbortController()
    cancelled.abort()
    const api = createPaymentsApi(createPaymentsClient({ baseUrl: sandbox.url, secretKey: KEY }))
    const reader = createPeriodReader({ now: () => new Date() })
    expect(
      await reader.read(
        api.history,
        { profileId: 'p1', mode: 'test', currency: 'NGN', from, to },
        () => undefined,
        cancelled.signal,
      ),
    ).toBeNull()
  })

  it('a payout journaled then killed before its request left is "ours only", before and after the start-up verify, each with the verify by reference shown, never sent by the verify', async () => {
    const api = createPaymentsApi(createPaymentsClient({ baseUrl: sandbox.url, secretKey: KEY }))
    const from = Date.now() - 60_000
    await api.payouts.disburse(body('KILL-0001', 1200) as never)
    await new Promise((resolve) => setTimeout(resolve, 200))
    const to = Date.now() + 1_000
    const movements = [
      movement('KILL-0001', '1200.00', 'success', '12.00'),
      // Still `recorded`: the desk restarted and its start-up reconciler has not reached it yet.
      killedBeforeSend('KILL-0002', '450.00'),
      // Verified absent at start-up: "Send again" is offered; nobody has sent it again.
      verifiedAbsentAfterRestart('KILL-0003', '600.50'),
    ]
    const ours = ourPayoutsOf(movements, { profileId: 'p1', mode: 'test', currency: 'NGN', from, to })
    expect(ours.map((o) => [o.reference, o.status])).toEqual([
      ['KILL-0001', 'paid'],
      ['KILL-0002', 'open'],
      ['KILL-0003', 'unknown'],
    ])
    const read = await createPeriodReader({ now: () => new Date(to + 60_000) }).read(
      api.history,
      { profileId: 'p1', mode: 'test', currency: 'NGN', from, to },
      () => undefined,
      new AbortController().signal,
    )
    const verifies: number[] = []
    const result = await reconcileWithVerifies(api, read!.payouts, ours, {
      now: () => new Date(),
      signal: new AbortController().signal,
      onVerified: (done) => verifies.push(done),
    })
    // Both killed payouts were asked about by their own reference, one after the other.
    expect(verifies).toEqual([1, 2])
    expect(result.lines.map((line) => [line.reference, line.state, line.verify?.found])).toEqual([
      ['KILL-0001', 'matched', undefined],
      ['KILL-0002', 'ours_only', 'absent'],
      ['KILL-0003', 'ours_only', 'absent'],
    ])
    expect(result.lines[1]!.verify!.note).toBe('The service has no payout KILL-0002 (asked by reference).')
    expect(result.lines[1]).toMatchObject({ amount: '450.00', fee: null, ours: { payee: 'Payee KILL-0002' } })
    expect(exceptionsOf(result).map((line) => line.reference)).toEqual(['KILL-0002', 'KILL-0003'])
    expect(result.totals).toEqual([
      expect.objectContaining({
        currency: 'NGN',
        states: expect.objectContaining({
          matched: { count: 1, amount: '1200.00' },
          ours_only: { count: 2, amount: '1050.50' },
        }),
        // Nothing was charged for a payout the service never had.
        fees: '12.00',
      }),
    ])
    // A verify only asks: the service still has neither.
    expect(await api.payouts.verify('KILL-0002')).toBeNull()
    expect(await api.payouts.verify('KILL-0003')).toBeNull()
  })
})
