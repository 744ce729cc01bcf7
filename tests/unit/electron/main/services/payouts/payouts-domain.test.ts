/**
 * The payouts and lookups channels as the renderer calls them, over the simulator: main refuses a
 * payout the shared rules refuse (before anything is journaled), asks a Live payout's amount
 * again, keeps references unique, resumes open payouts at start and announces how they ended, and
 * caches bank lists per profile until a refresh.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startSandbox } from '../../../../../../electron/sandbox'
import type { RunningSandbox } from '../../../../../../electron/sandbox'
import type { DesktopNotice } from '../../../../../../electron/main/adapters/desktop'
import { createBridgeDesktop } from '../../../../../../electron/main/adapters/bridge-desktop'
import { createPaymentsApi } from '../../../../../../electron/main/services/api'
import { createPaymentsClient } from '../../../../../../electron/main/services/api/payments-client'
import { openJournal } from '../../../../../../electron/main/services/journal/journal'
import type { Journal } from '../../../../../../electron/main/services/journal/journal'
import { createReconciler } from '../../../../../../electron/main/services/journal/reconciler'
import { createRedactingLog } from '../../../../../../electron/main/services/log/redacting-log'
import { createLookupDomain } from '../../../../../../electron/main/services/lookups/lookups-domain'
import { createPayoutDomain } from '../../../../../../electron/main/services/payouts/payouts-domain'
import type { ServiceContext } from '../../../../../../electron/main/services/service-context'
import type { MovementView } from '../../../../../../shared/domain/journal'
import type { PayoutBody } from '../../../../../../shared/domain/payouts'

const SECRET = 'sk_test_payouts_domain_0123456789abcdef'
let sandbox: RunningSandbox
let directory: string
let journal: Journal
let mode: 'sandbox' | 'test' | 'live'
let requests: string[]
let changes: MovementView[]
let notices: DesktopNotice[]
let context: ServiceContext

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
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'payouts-domain-'))
  journal = await openJournal(directory)
  mode = 'test'
  requests = []
  changes = []
  notices = []
  const countingFetch: typeof fetch = (input, init) => {
    requests.push(`${init?.method ?? 'GET'} ${new URL(String(input)).pathname}`)
    return fetch(input, init)
  }
  context = {
    userDataDir: directory,
    log: createRedactingLog(),
    emit: (event, payload) => {
      if (event === 'payouts:changed') changes.push(payload as MovementView)
    },
    profiles: {} as ServiceContext['profiles'],
    apiFor: async (profileId) => ({
      profileId: profileId ?? 'acme',
      mode,
      api: createPaymentsApi(createPaymentsClient({ baseUrl: sandbox.url, secretKey: SECRET, fetch: countingFetch })),
    }),
    journal,
    reconciler: createReconciler(journal),
    desktop: { ...createBridgeDesktop(), notifier: { notify: (notice) => void notices.push(notice) } },
    now: () => new Date(),
  }
})
afterEach(async () => {
  await journal.close()
  await rm(directory, { recursive: true, force: true })
})

function body(reference: string, destination: Partial<PayoutBody['destination']> = {}): PayoutBody {
  return {
    reference,
    destination: {
      type: 'bank_account',
      amount: '1500.50',
      currency: 'NGN',
      bank_account: { bank: '044', account: '0123456789' },
      customer: { email: 'ada@example.com' },
      ...destination,
    },
  }
}

describe('payouts:send in main', () => {
  it('refuses card data up front with a reason: a metadata key such as pin, a card number as a value or in any field', async () => {
    const domain = createPayoutDomain(context)
    const send = domain.handlers['payouts:send']
    await expect(send({ body: { ...body('PD-CARDDATA-01'), metadata: { pin: '1234' } } })).rejects.toMatchObject({
      code: 'bad_request',
      details: {
        issues: [{ path: 'metadata', message: expect.stringMatching(/^Key "pin" is the name of a card PIN/) }],
      },
    })
    await expect(
      send({ body: { ...body('PD-CARDDATA-02'), metadata: { note: '4084 1278 8317 2787' } } }),
    ).rejects.toMatchObject({
      code: 'bad_request',
      details: {
        issues: [{ path: 'metadata', message: expect.stringMatching(/key "note" looks like a card number/) }],
      },
    })
    // A field the form rules do not read for card data: the journal's guard refuses it, by name, as a bad request.
    await expect(
      send({ body: body('PD-CARDDATA-03', { narration: 'Refund to card 4084127883172787' }) }),
    ).rejects.toMatchObject({
      code: 'bad_request',
      message: expect.stringMatching(/refused request\.destination\.narration: it looks like a card number/),
    })
    expect(journal.list()).toEqual([])
    expect(requests.filter((request) => request.includes('disburse'))).toEqual([])
    await domain.close?.()
  })

  it('refuses what the shared rules refuse, field by field, and journals nothing', async () => {
    const domain = createPayoutDomain(context)
    const send = domain.handlers['payouts:send']
    const refused = body('PD-RULES-0001', {
      type: 'mobile_money',
      currency: 'GHS',
      amount: '5000.01',
      bank_account: undefined,
      mobile_money: { operator: 'mtn-gh', mobile_number: '233241234567' },
      customer: { email: 'not-an-email' },
    })
    await expect(send({ body: refused })).rejects.toMatchObject({
      code: 'bad_request',
      details: {
        issues: expect.arrayContaining([
          { path: 'amount', message: 'MTN Mobile Money takes at most 5,000.00 GHS per payout.' },
          { path: 'customerEmail', message: 'This is not a valid e-mail address.' },
        ]),
      },
    })
    expect(journal.has('PD-RULES-0001')).toBe(false)
    expect(requests.filter((request) => request.includes('disburse'))).toEqual([])
    await domain.close?.()
  })

  it('asks a Live payout’s amount again, and keeps a reference for one payout only', async () => {
    mode = 'live'
    const domain = createPayoutDomain(context)
    const send = domain.handlers['payouts:send']
    await expect(send({ body: body('PD-LIVE-00001') })).rejects.toMatchObject({
      code: 'bad_request',
      message: 'This is a Live payout: type its amount exactly to confirm it.',
    })
    await expect(send({ body: body('PD-LIVE-00001'), confirmAmount: '1500.05' })).rejects.toMatchObject({
      code: 'bad_request',
    })
    expect(journal.has('PD-LIVE-00001')).toBe(false)

    const sent = await send({ body: body('PD-LIVE-00001'), confirmAmount: '1500.5' })
    expect(sent).toMatchObject({ reference: 'PD-LIVE-00001', state: 'processing', profileMode: 'live' })
    expect(changes.at(-1)?.reference).toBe('PD-LIVE-00001')
    // The same payout asked for again (a second click after the first finished) is that payout: nothing is sent.
    const disbursed = requests.filter((request) => request.includes('disburse')).length
    expect(await send({ body: body('PD-LIVE-00001'), confirmAmount: '1500.50' })).toMatchObject({
      reference: 'PD-LIVE-00001',
      timeline: sent.timeline,
    })
    expect(requests.filter((request) => request.includes('disburse'))).toHaveLength(disbursed)
    // Another payout under that reference is refused.
    await expect(
      send({ body: body('PD-LIVE-00001', { amount: '99.00' }), confirmAmount: '99.00' }),
    ).rejects.toMatchObject({ code: 'conflict' })
    expect(domain.handlers['payouts:checkReference']({ reference: 'PD-LIVE-00001' })).toEqual({
      problem: 'This reference was already used by this desk: every payout needs its own.',
    })
    await domain.close?.()
  })

  it('makes fresh references that the journal has not seen', async () => {
    const domain = createPayoutDomain(context)
    const made = new Set<string>()
    for (let index = 0; index < 20; index++) {
      const reference = (await domain.handlers['payouts:newReference'](undefined)) as string
      expect(reference).toMatch(/^PD-\d{8}-[0-9A-F]{10}$/)
      made.add(reference)
    }
    expect(made.size).toBe(20)
    await domain.close?.()
  })
})

describe('following payouts', () => {
  it('resumes open payouts at start and announces how each ended', async () => {
    const first = createPayoutDomain(context)
    await first.handlers['payouts:send']({ body: body('PD-RESUME-0001') })
    await first.handlers['payouts:send']({
      body: body('PD-RESUME-0002', { bank_account: { bank: '044', account: '0000000000' } }),
    })
    await first.close?.()
    notices = []

    // A new app on the same journal: start() picks both up.
    const second = createPayoutDomain(context, { delays: { firstMs: 60, maxMs: 120 } })
    second.start?.()
    await expect.poll(() => notices.length, { timeout: 5000 }).toBe(2)
    expect(notices).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'success', title: 'Payout paid' }),
        expect.objectContaining({
          kind: 'failure',
          title: 'Payout failed',
          body: expect.stringContaining('Invalid bank account number'),
        }),
      ]),
    )
    expect(journal.get('PD-RESUME-0001')?.state).toBe('success')
    expect(journal.get('PD-RESUME-0002')?.state).toBe('failed')
    await expect(second.handlers['payouts:resend']({ reference: 'PD-RESUME-0001' })).rejects.toMatchObject({
      code: 'conflict',
    })
    await second.close?.()
  })
})

describe('unknown payouts across restarts', () => {
  const fault = (body: Record<string, unknown>) =>
    fetch(`${sandbox.url}/__sandbox/faults`, {
      method: body.kind ? 'POST' : 'DELETE',
      headers: { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' },
      ...(body.kind ? { body: JSON.stringify(body) } : {}),
    })

  /** One start of the app as app-services does it: reconciliation, then the domains resume. */
  async function startApp(): Promise<ReturnType<typeof createPayoutDomain>> {
    context.reconciler = createReconciler(journal)
    const domain = createPayoutDomain(context, { delays: { firstMs: 30, maxMs: 60 } })
    await context.reconciler.run()
    domain.start?.()
    return domain
  }

  it('are verified after every restart, with backoff, until the service answers; each finding is written once', async () => {
    // The disburse answers 503 without taking it: the payout is unknown.
    await fault({ path: '/merchant/api/v1/transactions/disburse', kind: 'before-accept', count: 1 })
    const first = createPayoutDomain(context)
    const sent = await first.handlers['payouts:send']({ body: body('PD-RESTART-001') })
    expect(sent.state).toBe('unknown')
    await first.close?.()

    // Verification cannot get an answer: the app is restarted four times meanwhile.
    await fault({ path: '/merchant/api/v1/transactions/PD-', kind: 'before-accept', count: 10_000 })
    const asked = (): number => requests.filter((r) => r === 'GET /merchant/api/v1/transactions/PD-RESTART-001').length
    for (let restart = 0; restart < 4; restart++) {
      const before = asked()
      const app = await startApp()
      // Verified at start and again by the watcher, with backoff: more than once per start.
      await expect.poll(() => asked() - before, { timeout: 5000 }).toBeGreaterThanOrEqual(3)
      await app.close?.()
    }
    const couldNotSay = journal.get('PD-RESTART-001')!.timeline.filter((e) => /Could not verify/.test(e.note))
    expect(couldNotSay).toHaveLength(1)
    expect(journal.get('PD-RESTART-001')!.state).toBe('unknown')

    // The service answers again: it has no such payout. Written once, however many restarts follow.
    await fault({})
    for (let restart = 0; restart < 3; restart++) {
      const app = await startApp()
      await expect.poll(() => journal.get('PD-RESTART-001')!.lastVerification, { timeout: 5000 }).toBe('absent')
      await new Promise((resolve) => setTimeout(resolve, 150))
      await app.close?.()
    }
    const absent = journal.get('PD-RESTART-001')!.timeline.filter((e) => e.verification === 'absent')
    expect(absent).toHaveLength(1)

    // Still followed while Send again is offered; sent again, it is paid.
    const app = await startApp()
    const resent = await app.handlers['payouts:resend']({ reference: 'PD-RESTART-001' })
    expect(resent.state).toBe('processing')
    await expect.poll(() => journal.get('PD-RESTART-001')!.state, { timeout: 5000 }).toBe('success')
    await app.close?.()
  })

  it('the start-up report says a payout the service never received may be sent again', async () => {
    await fault({ path: '/merchant/api/v1/transactions/disburse', kind: 'before-accept', count: 1 })
    const first = createPayoutDomain(context)
    await first.handlers['payouts:send']({ body: body('PD-REPORT-001') })
    await first.close?.()
    context.reconciler = createReconciler(journal)
    const domain = createPayoutDomain(context)
    const report = await context.reconciler.run()
    expect(report.items).toEqual([
      expect.objectContaining({
        reference: 'PD-REPORT-001',
        after: 'unknown',
        verification: 'absent',
        followUp: 'send_again_offered',
      }),
    ])
    await domain.close?.()
  })
})

describe('lookups', () => {
  it('keeps banks per profile until a refresh, and resolves names', async () => {
    const lookups = createLookupDomain(context)
    const banks = lookups.handlers['lookups:banks']
    const first = await banks({ countryCode: 'NG' })
    await banks({ countryCode: 'NG' })
    expect(requests.filter((request) => request === 'GET /merchant/api/v1/misc/banks')).toHaveLength(1)
    await banks({ countryCode: 'NG', refresh: true })
    expect(requests.filter((request) => request === 'GET /merchant/api/v1/misc/banks')).toHaveLength(2)
    expect(first.some((bank) => bank.code === '044')).toBe(true)

    const operators = await lookups.handlers['lookups:operators']({ countryCode: 'GH' })
    expect(operators.find((operator) => operator.slug === 'airteltigo-gh')).toMatchObject({
      min: '1.00',
      max: '3000.00',
    })
    const resolved = await lookups.handlers['lookups:resolveMobileMoney']({
      mobileMoneyCode: 'MTN',
      phoneNumber: '+233241234567',
      currency: 'GHS',
    })
    expect(resolved).toMatchObject({ phoneNumber: '233241234567', operatorName: 'MTN Mobile Money' })
    await expect(
      lookups.handlers['lookups:resolveBank']({ bank: '044', account: '1234567890', currency: 'NGN' }),
    ).rejects.toMatchObject({ code: 'rejected', message: 'Unable to resolve bank account' })
  })
})
