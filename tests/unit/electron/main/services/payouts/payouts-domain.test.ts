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
    await expect(send({ body: body('PD-LIVE-00001'), confirmAmount: '1500.50' })).rejects.toMatchObject({
      code: 'conflict',
    })
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
