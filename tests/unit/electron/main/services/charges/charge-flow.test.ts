/** The charge flow in main against the simulator over real HTTP, one test per flow of docs/sandbox.md. */
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { AuthWindow, AuthWindowRequest, DesktopAdapters } from '../../../../../../electron/main/adapters/desktop'
import { createPaymentsApi } from '../../../../../../electron/main/services/api'
import { createPaymentsClient } from '../../../../../../electron/main/services/api/payments-client'
import { createChargeFlow } from '../../../../../../electron/main/services/charges/charge-flow'
import type { ChargeFlow } from '../../../../../../electron/main/services/charges/charge-flow'
import type { ChargeInput } from '../../../../../../electron/main/services/charges/charge-request'
import { createChargeVerifier } from '../../../../../../electron/main/services/charges/charge-verification'
import { openJournal } from '../../../../../../electron/main/services/journal/journal'
import type { Journal } from '../../../../../../electron/main/services/journal/journal'
import { createReconciler } from '../../../../../../electron/main/services/journal/reconciler'
import { createRedactingLog } from '../../../../../../electron/main/services/log/redacting-log'
import type { ProfileService } from '../../../../../../electron/main/services/profiles/profile-service'
import type { ServiceContext } from '../../../../../../electron/main/services/service-context'
import { appReturnUrl } from '../../../../../../electron/main/windows/return-url'
import { watchThreeDs } from '../../../../../../electron/main/windows/three-ds-outcome'
import { encryptChargeData, startSandbox } from '../../../../../../electron/sandbox'
import type { RunningSandbox } from '../../../../../../electron/sandbox'
import type { AppFailure } from '../../../../../../shared/result'

const SECRET_KEY = 'sk_test_charge_flow'
const ENCRYPTION_KEY = 'charge-flow-encryption-key-32byt'
const CVV = '987'
const PIN = '1234'

let sandbox: RunningSandbox
let dir: string
let journal: Journal
let reconciler: ReturnType<typeof createReconciler>
let flow: ChargeFlow
let encryptionKey: string
let events: Array<[string, unknown]>
/** What the 3-D Secure "window" does: completes the page, or is closed by hand. */
let threeDs: (request: AuthWindowRequest) => Promise<'returned' | 'closed' | 'timed_out' | 'failed_to_open'>
let opened: AuthWindowRequest[]
let counter = 0
/** When set, the service echoes the PIN or OTP typed back in its answer's message. */
let echoTyped = false

const reference = () => `FLOW-${Date.now().toString(36)}-${++counter}`

function input(number: string, extra: Partial<ChargeInput> = {}): ChargeInput {
  return {
    reference: reference(),
    card: { number, expiryMonth: '09', expiryYear: '31', cvv: CVV },
    amount: '2500.50',
    email: 'ada@example.com',
    customerName: 'Ada Obi',
    metadata: [{ key: 'invoice', value: 'INV-7' }],
    ...extra,
  }
}

/** A browser completing the simulator's 3-D Secure page with an OTP, watched like the real window. */
async function completeThreeDs(request: AuthWindowRequest, otp = '123456') {
  const watch = watchThreeDs({ returnUrl: request.returnUrl, mode: request.mode, timeoutMs: request.timeoutMs })
  const page = await fetch(request.url)
  expect(await page.text()).toContain('Enter the OTP')
  const posted = await fetch(request.url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `otp=${otp}`,
    redirect: 'manual',
  })
  const location = posted.headers.get('location')
  if (location) watch.navigated(location)
  else watch.closed()
  return watch.outcome
}

async function fault(body: Record<string, unknown>) {
  const answer = await fetch(`${sandbox.url}/__sandbox/faults`, {
    method: 'POST',
    headers: { authorization: `Bearer ${SECRET_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  expect(answer.status).toBe(200)
}

async function failureOf(promise: Promise<unknown>): Promise<AppFailure> {
  try {
    await promise
  } catch (error) {
    return error as AppFailure
  }
  throw new Error('expected a failure')
}

beforeEach(async () => {
  sandbox = await startSandbox({ secretKey: SECRET_KEY, encryptionKey: ENCRYPTION_KEY, admin: true, settleMs: 0 })
  dir = await mkdtemp(join(tmpdir(), 'charge-flow-'))
  journal = await openJournal(join(dir, 'journal'))
  reconciler = createReconciler(journal)
  encryptionKey = ENCRYPTION_KEY
  events = []
  opened = []
  echoTyped = false
  threeDs = completeThreeDs
  const authWindow: AuthWindow = {
    returnUrlFor: appReturnUrl,
    open: (request) => {
      opened.push(request)
      return threeDs(request)
    },
    popupReport: () => false,
  }
  const api = () => {
    const real = createPaymentsApi(
      createPaymentsClient({ baseUrl: sandbox.url, secretKey: SECRET_KEY, timeoutMs: 3000 }),
    )
    if (!echoTyped) return real
    // A service that echoes what was typed back in its message ("PIN 1234 accepted").
    const authorize: typeof real.charges.authorize = async (transaction, authorization) => {
      const answer = await real.charges.authorize(transaction, authorization)
      const typed =
        'pin' in authorization ? `PIN ${authorization.pin}` : 'otp' in authorization ? `OTP ${authorization.otp}` : ''
      return { ...answer, response_message: `${typed} accepted` }
    }
    return { ...real, charges: { ...real.charges, authorize } }
  }
  const context: ServiceContext = {
    userDataDir: dir,
    log: createRedactingLog({ info: () => {}, warn: () => {}, error: () => {} } as never),
    emit: (event, payload) => void events.push([event, payload]),
    profiles: {
      credentialsOf: async () => ({
        profileId: 'sandbox',
        mode: 'sandbox',
        baseUrl: sandbox.url,
        secretKey: SECRET_KEY,
        encryptionKey,
      }),
    } as unknown as ProfileService,
    apiFor: async () => ({ profileId: 'sandbox', mode: 'sandbox', api: api() }),
    journal,
    reconciler,
    desktop: { authWindow } as unknown as DesktopAdapters,
    now: () => new Date(),
  }
  reconciler.register('charge', createChargeVerifier(context))
  flow = createChargeFlow(context)
})

afterEach(async () => {
  await flow.settle()
  await journal.close()
  await sandbox.close()
  await rm(dir, { recursive: true, force: true })
})

describe('charge flows against the simulator', () => {
  it('NO_AUTH: charges, always verifies, and shows amount paid, fee and card from the verification', async () => {
    const view = await flow.start(input('5188513618552975'))
    expect(view.stage).toBe('success')
    expect(view.verified).toMatchObject({
      status: 'success',
      amount: '2500.50',
      amountPaid: '2500.50',
      fee: '37.51',
      card: { scheme: 'mastercard', firstSix: '518851', lastFour: '2975' },
      paymentAttempts: [],
    })
    const movement = journal.get(view.reference)!
    expect(movement.state).toBe('success')
    expect(movement.lastVerification).toBe('found')
    expect(movement.request).toEqual({
      reference: view.reference,
      amount: '2500.50',
      currency: 'NGN',
      customer: { email: 'ada@example.com', name: 'Ada Obi' },
      card: { scheme: 'mastercard', first_six: '518851', last_four: '2975' },
      redirect_url: appReturnUrl(view.reference),
      metadata: { invoice: 'INV-7' },
    })
    expect(movement.timeline.map((event) => event.state ?? '-')).toEqual(['recorded', 'sent', '-', 'success'])
    expect(flow.list()[0]).toMatchObject({
      reference: view.reference,
      state: 'success',
      verified: { amountPaid: '2500.50' },
    })
  })

  it('takes the amount as people type it ("₦2,500.50") and charges its plain decimal; another currency is refused', async () => {
    const view = await flow.start(input('5188513618552975', { amount: '₦2,500.50' }))
    expect(view.stage).toBe('success')
    expect(journal.get(view.reference)!.request).toMatchObject({ amount: '2500.50', currency: 'NGN' })
    await expect(flow.start(input('5188513618552975', { amount: 'KSh 2,500' }))).rejects.toThrow(
      'KSh means KES; this amount is in NGN.',
    )
  })

  it('PIN then OTP: asks only for the PIN, then only for the OTP, then verifies success', async () => {
    const started = await flow.start(input('5060990580000217499'))
    expect(started).toMatchObject({ stage: 'authorizing', authModel: 'PIN', requiredFields: ['pin'] })
    const afterPin = await flow.authorize({ reference: started.reference, pin: PIN })
    expect(afterPin).toMatchObject({ stage: 'authorizing', authModel: 'OTP', requiredFields: ['otp'] })
    const done = await flow.authorize({ reference: started.reference, otp: '123456' })
    expect(done.stage).toBe('success')
    expect(done.verified?.card.scheme).toBe('verve')
    const notes = journal.get(started.reference)!.timeline.map((event) => event.note)
    expect(notes).toContain('Authorization sent: card PIN')
    expect(notes).toContain('Authorization sent: one-time password')
  })

  it('a PIN given up front skips the PIN step; a wrong one fails at once, verified, with its reason', async () => {
    const withPin = await flow.start(
      input('5060990580000217499', {
        card: { number: '5060990580000217499', expiryMonth: '09', expiryYear: '31', cvv: CVV, pin: PIN },
      }),
    )
    expect(withPin).toMatchObject({ stage: 'authorizing', authModel: 'OTP' })
    const wrong = await flow.start(
      input('5060990580000217499', {
        card: { number: '5060990580000217499', expiryMonth: '09', expiryYear: '31', cvv: CVV, pin: '0000' },
      }),
    )
    expect(wrong.stage).toBe('failed')
    expect(wrong.verified?.paymentAttempts[0]?.message).toBe('Incorrect card PIN')
    expect(wrong.explanation).toMatchObject({ message: 'Incorrect card PIN', meaning: 'The PIN entered was wrong.' })
    expect(journal.get(wrong.reference)!.state).toBe('failed')
  })

  it('OTP: a wrong OTP ends in the verified failed result with its reason', async () => {
    const started = await flow.start(input('5399838383838381'))
    expect(started).toMatchObject({ stage: 'authorizing', authModel: 'OTP', requiredFields: ['otp'] })
    const failed = await flow.authorize({ reference: started.reference, otp: '000000' })
    expect(failed.stage).toBe('failed')
    expect(failed.verified).toMatchObject({ status: 'failed', amountPaid: '0.00' })
    expect(failed.explanation?.message).toBe('The OTP entered is invalid')
  })

  it('AVS: asks for the five address fields, refuses a missing one before sending, then succeeds', async () => {
    const started = await flow.start(input('4111111111111111'))
    expect(started.authModel).toBe('AVS')
    expect([...(started.requiredFields ?? [])].sort()).toEqual(['address', 'city', 'country', 'state', 'zip_code'])
    const avs = { address: '1 Marina', city: 'Lagos', state: 'Lagos', zip_code: '100001', country: 'NG' }
    const before = journal.get(started.reference)!.timeline.length
    const missing = await failureOf(flow.authorize({ reference: started.reference, avs: { ...avs, city: ' ' } }))
    expect(missing.code).toBe('bad_request')
    expect(missing.message).toMatch(/city/)
    expect(journal.get(started.reference)!.timeline.length).toBe(before)
    expect((await flow.authorize({ reference: started.reference, avs })).stage).toBe('success')
  })

  it('CARD_ENROLL then OTP', async () => {
    const started = await flow.start(input('5061460410120223210'))
    expect(started).toMatchObject({ authModel: 'CARD_ENROLL', requiredFields: ['phone'] })
    const next = await flow.authorize({ reference: started.reference, phone: '+2348012345678' })
    expect(next).toMatchObject({ authModel: 'OTP', requiredFields: ['otp'] })
    expect((await flow.authorize({ reference: started.reference, otp: '123456' })).stage).toBe('success')
  })

  it('3DS: opens the page with the app return URL, ends when the page returns there, and verifies', async () => {
    const started = await flow.start(input('4084127883172787'))
    expect(started.stage).toBe('three_ds')
    await flow.settle()
    expect(opened[0]).toMatchObject({
      reference: started.reference,
      returnUrl: appReturnUrl(started.reference),
      timeoutMs: 600_000,
    })
    expect(opened[0]?.url).toBe(started.threeDsUrl)
    const [done] = flow.sessions()
    expect(done).toMatchObject({ stage: 'success', threeDsOutcome: 'returned' })
    expect(
      events.some(([name, view]) => name === 'charges:changed' && (view as { stage: string }).stage === 'success'),
    ).toBe(true)
    const notes = journal.get(started.reference)!.timeline.map((event) => event.note)
    expect(notes).toContain('3-D Secure window reached the return address; verifying')
  })

  it('3DS closed by hand is "not completed", verified, and left awaiting verification, never failed', async () => {
    threeDs = async () => 'closed'
    const started = await flow.start(input('4084127883172787', { redirectUrl: 'https://shop.example/paid' }))
    await flow.settle()
    expect(opened[0]?.returnUrl).toBe('https://shop.example/paid')
    const [view] = flow.sessions()
    expect(view).toMatchObject({ stage: 'awaiting_verification', threeDsOutcome: 'closed' })
    expect(journal.get(started.reference)!.state).toBe('processing')
  })

  it('insufficient funds: verified failed with the reason in plain words', async () => {
    const view = await flow.start(input('4000000000000002'))
    expect(view.stage).toBe('failed')
    expect(view.explanation?.meaning).toBe('There is not enough money on the card.')
  })

  it('an unsupported card is stopped before anything is sent or journaled', async () => {
    const failure = await failureOf(flow.start(input('378282246310005')))
    expect(failure.code).toBe('bad_request')
    expect(failure.message).toMatch(/^Card not supported/)
    expect(journal.list()).toHaveLength(0)
  })

  it('a reference is used once: the journal refuses it before sending; a duplicate answer is verified, never failed', async () => {
    const first = await flow.start(input('5188513618552975'))
    const again = await failureOf(flow.start({ ...input('5188513618552975'), reference: first.reference }))
    expect(again.code).toBe('conflict')

    // A payment made outside this desk with the reference the desk is about to use.
    const taken = reference()
    await fetch(`${sandbox.url}/merchant/api/v1/charges/card`, {
      method: 'POST',
      headers: { authorization: `Bearer ${SECRET_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        charge_data: encryptChargeData(
          {
            reference: taken,
            card: { number: '5188513618552975', cvv: '123', expiry_month: '01', expiry_year: '30' },
            amount: 1,
            currency: 'NGN',
            customer: { email: 'x@example.com' },
          },
          ENCRYPTION_KEY,
        ),
      }),
    })
    // The service says the reference exists: the desk shows what the service holds under it, verified.
    const duplicate = await flow.start({ ...input('5188513618552975'), reference: taken })
    expect(duplicate.stage).toBe('success')
    expect(duplicate.verified).toMatchObject({ status: 'success', amount: '1.00' })
    expect(journal.get(taken)!.state).toBe('success')
    expect(journal.get(taken)!.timeline.map((event) => event.note)).toContain(
      'Charge: no clear answer (Duplicate payment reference); awaiting verification',
    )
  })

  it('a double click on Charge starts one charge, and both clicks see it', async () => {
    const charge = input('5188513618552975')
    const [first, second] = await Promise.all([flow.start(charge), flow.start(charge)])
    expect(second).toEqual(first)
    expect(first.stage).toBe('success')
    expect(journal.list({ kind: 'charge' }).filter((m) => m.reference === charge.reference)).toHaveLength(1)
  })

  it('a 503 after the charge was accepted is "awaiting verification", then verified success, never failed', async () => {
    await fault({ path: '/merchant/api/v1/charges/card', kind: 'after-accept', status: 503, count: 1 })
    const view = await flow.start(input('5188513618552975'))
    expect(view.stage).toBe('success')
    expect(view.verified?.amountPaid).toBe('2500.50')
    const states = journal.get(view.reference)!.timeline.map((event) => event.state)
    expect(states).toContain('unknown')
    expect(states).not.toContain('failed')
  })

  it('a 503 before acceptance is verified absent: awaiting verification, nothing charged, not failed', async () => {
    await fault({ path: '/merchant/api/v1/charges/card', kind: 'before-accept', status: 503, count: 1 })
    const view = await flow.start(input('5188513618552975'))
    expect(view.stage).toBe('awaiting_verification')
    const movement = journal.get(view.reference)!
    expect(movement).toMatchObject({ state: 'unknown', lastVerification: 'absent' })
    expect(view.error?.message).toMatch(/no charge with this reference/)
  })

  it('an encryption key of the wrong length is a setup error before anything is journaled or sent', async () => {
    encryptionKey = 'too-short'
    const failure = await failureOf(flow.start(input('5188513618552975')))
    expect(failure.code).toBe('keys_missing')
    expect(journal.list()).toHaveLength(0)
  })

  it("a key the service does not hold gets the spec's decrypt error in plain words, nothing charged", async () => {
    encryptionKey = 'another-encryption-key-32-bytes!'
    const view = await flow.start(input('5188513618552975'))
    expect(view.stage).toBe('refused')
    expect(view.explanation?.message).toBe('Unable to decrypt charge data, please check encryption and try again')
    expect(view.explanation?.next).toMatch(/encryption key/)
  })

  it('never writes the card number, CVV or PIN to the journal, and never returns them', async () => {
    const pinned = input('5060990580000217499', {
      card: { number: '5060990580000217499', expiryMonth: '09', expiryYear: '31', cvv: CVV, pin: PIN },
    })
    const view = await flow.start(pinned)
    await flow.authorize({ reference: view.reference, otp: '123456' })
    const file = await readFile(join(dir, 'journal', 'journal.jsonl'), 'utf8')
    const returned = JSON.stringify([flow.sessions(), flow.list(), events])
    for (const text of [file, returned]) {
      expect(text).not.toContain('5060990580000217499')
      expect(text).not.toMatch(new RegExp(`"${CVV}"|:${CVV}[,}]`))
      expect(text).not.toContain('123456')
    }
    expect(file).toContain('"first_six":"506099"')
  })

  it('masks a PIN or OTP the service echoes back ("PIN 1234 accepted") in the journal, the screen and the events', async () => {
    echoTyped = true
    const view = await flow.start(input('5060990580000217499'))
    expect(view.stage).toBe('authorizing')
    const afterPin = await flow.authorize({ reference: view.reference, pin: PIN })
    await flow.authorize({ reference: afterPin.reference, otp: '123456' })
    const file = await readFile(join(dir, 'journal', 'journal.jsonl'), 'utf8')
    expect(file).toContain('**** accepted')
    const returned = JSON.stringify([flow.sessions(), flow.list(), events])
    for (const text of [file, returned]) {
      expect(text).not.toMatch(new RegExp(`PIN ${PIN}\\b`))
      expect(text).not.toContain('OTP 123456')
    }
  })

  it('start-up reconciliation verifies a charge left open by a crash and journals the verified result', async () => {
    // The charge reached the service, then the app stopped before it journaled the answer.
    const open = reference()
    await journal.record({
      reference: open,
      kind: 'charge',
      profileId: 'sandbox',
      mode: 'sandbox',
      request: { reference: open, amount: '10.00', currency: 'NGN' },
    })
    await journal.append(open, { state: 'sent', note: 'Charge sent (card details encrypted)' })
    await fetch(`${sandbox.url}/merchant/api/v1/charges/card`, {
      method: 'POST',
      headers: { authorization: `Bearer ${SECRET_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        charge_data: encryptChargeData(
          {
            reference: open,
            card: { number: '4000000000000002', cvv: '123', expiry_month: '01', expiry_year: '30' },
            amount: 10,
            currency: 'NGN',
            customer: { email: 'x@example.com' },
          },
          ENCRYPTION_KEY,
        ),
      }),
    })
    const never = reference()
    await journal.record({
      reference: never,
      kind: 'charge',
      profileId: 'sandbox',
      mode: 'sandbox',
      request: { reference: never },
    })
    const report = await reconciler.run()
    expect(report.items.map((item) => [item.reference, item.after])).toEqual(
      expect.arrayContaining([
        [open, 'failed'],
        [never, 'unknown'],
      ]),
    )
    expect(flow.list().find((item) => item.reference === open)?.verified?.paymentAttempts[0]?.message).toBe(
      'Card could not be charged due to insufficient funds',
    )
    expect(journal.get(never)?.lastVerification).toBe('absent')
  })
})
