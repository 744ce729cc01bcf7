/**
 * The card data typed into the charge form is registered for masking while main holds it, like
 * every other secret, and forgotten once the request is over: a card number that fails Luhn (a
 * mistyped one, which no pattern recognises) is masked too, and so are the CVV and the PIN.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import type { DesktopAdapters } from '../../../../../../electron/main/adapters/desktop'
import { createPaymentsApi } from '../../../../../../electron/main/services/api'
import { createPaymentsClient } from '../../../../../../electron/main/services/api/payments-client'
import { createChargeDomain } from '../../../../../../electron/main/services/charges/charges-domain'
import { openJournal } from '../../../../../../electron/main/services/journal/journal'
import type { Journal } from '../../../../../../electron/main/services/journal/journal'
import { createReconciler } from '../../../../../../electron/main/services/journal/reconciler'
import { createRedactingLog } from '../../../../../../electron/main/services/log/redacting-log'
import type { AppLog } from '../../../../../../electron/main/services/log/redacting-log'
import type { ProfileService } from '../../../../../../electron/main/services/profiles/profile-service'
import type { ServiceContext } from '../../../../../../electron/main/services/service-context'
import { appReturnUrl } from '../../../../../../electron/main/windows/return-url'
import { startSandbox } from '../../../../../../electron/sandbox'
import type { RunningSandbox } from '../../../../../../electron/sandbox'

const SECRET_KEY = 'sk_test_charge_masking'
const ENCRYPTION_KEY = 'charge-mask-encryption-key-32byt'
/** A Mastercard-shaped number that fails Luhn: a typo no pattern can recognise as a card number. */
const MISTYPED = '5188513618552976'
const CVV = '739'
const PIN = '4821'

let sandbox: RunningSandbox
let dir: string
let journal: Journal
let log: AppLog
let logged: string[]
/** What the log wrote while the charge request was on its way, and what was registered then. */
let duringRequest: { line: string; held: boolean } | null

beforeEach(async () => {
  sandbox = await startSandbox({ secretKey: SECRET_KEY, encryptionKey: ENCRYPTION_KEY, admin: true, settleMs: 0 })
  dir = await mkdtemp(join(tmpdir(), 'charge-masking-'))
  journal = await openJournal(join(dir, 'journal'))
  logged = []
  duringRequest = null
  const sink = (...parts: unknown[]) => void logged.push(parts.map(String).join(' '))
  log = createRedactingLog({ info: sink, warn: sink, error: sink })
  // A library that echoes what it was given into the log, as a failing one might.
  const echoing: typeof fetch = async (input, init) => {
    if (String(input).endsWith('/charges/card')) {
      log.error(`charge of card ${MISTYPED} cvv ${CVV} pin ${PIN} is on its way`)
      duringRequest = { line: logged.at(-1) ?? '', held: log.secrets.has(MISTYPED) && log.secrets.has(CVV) }
    }
    return fetch(input, init)
  }
  const context: ServiceContext = {
    userDataDir: dir,
    log,
    emit: () => undefined,
    profiles: {
      credentialsOf: async () => ({
        profileId: 'sandbox',
        mode: 'sandbox',
        baseUrl: sandbox.url,
        secretKey: SECRET_KEY,
        encryptionKey: ENCRYPTION_KEY,
      }),
    } as unknown as ProfileService,
    apiFor: async () => ({
      profileId: 'sandbox',
      mode: 'sandbox',
      api: createPaymentsApi(
        createPaymentsClient({ baseUrl: sandbox.url, secretKey: SECRET_KEY, timeoutMs: 3000, fetch: echoing }),
      ),
    }),
    journal,
    reconciler: createReconciler(journal),
    desktop: { authWindow: { returnUrlFor: appReturnUrl } } as unknown as DesktopAdapters,
    now: () => new Date(),
  }
  domain = createChargeDomain(context)
})

let domain: ReturnType<typeof createChargeDomain>

afterEach(async () => {
  await journal.close()
  await sandbox.close()
  await rm(dir, { recursive: true, force: true })
})

it('masks the typed card number, CVV and PIN while the charge is sent, and forgets them after', async () => {
  const before = log.secrets.size
  const view = await domain.handlers['charges:start']({
    reference: 'MASK-0001-charge',
    card: {
      number: MISTYPED.replace(/(\d{4})/g, '$1 ').trim(),
      expiryMonth: '09',
      expiryYear: '31',
      cvv: CVV,
      pin: PIN,
    },
    amount: '10.00',
    email: 'ada@example.com',
    metadata: [],
  })
  expect(view.card).toMatchObject({ firstSix: '518851', lastFour: '2976' })
  expect(duringRequest).toEqual({
    line: 'charge of card [redacted] cvv [redacted] pin [redacted] is on its way',
    held: true,
  })
  // Once the call is over, main holds none of it.
  expect(log.secrets.size).toBe(before)
  expect(log.secrets.has(MISTYPED) || log.secrets.has(CVV) || log.secrets.has(PIN)).toBe(false)
  const written = await readFile(join(dir, 'journal', 'journal.jsonl'), 'utf8')
  expect(written).not.toContain(MISTYPED)
  expect(written).not.toMatch(new RegExp(`\\b(${CVV}|${PIN})\\b`))
})
