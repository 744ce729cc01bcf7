/**
 * A ServiceContext over a real simulator (real HTTP, real clock), a real journal in a temporary
 * folder and the bridge's desktop stand-ins, for the card services.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { EventName, EventPayload } from '../../../../../../shared/ipc/contract'
import { createBridgeDesktop } from '../../../../../../electron/main/adapters/bridge-desktop'
import type { BridgeDesktop } from '../../../../../../electron/main/adapters/bridge-desktop'
import { createPaymentsApi } from '../../../../../../electron/main/services/api'
import { createPaymentsClient } from '../../../../../../electron/main/services/api/payments-client'
import { openJournal } from '../../../../../../electron/main/services/journal/journal'
import type { Journal } from '../../../../../../electron/main/services/journal/journal'
import { createReconciler } from '../../../../../../electron/main/services/journal/reconciler'
import { createRedactingLog } from '../../../../../../electron/main/services/log/redacting-log'
import type { ProfileService } from '../../../../../../electron/main/services/profiles/profile-service'
import type { ServiceContext } from '../../../../../../electron/main/services/service-context'
import { startTestSandbox } from '../../../../sandbox/helpers'
import type { TestSandbox } from '../../../../sandbox/helpers'
import { SECRET_KEY } from '../../../../sandbox/helpers'

export const PNG_1x1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
)

export interface Harness {
  t: TestSandbox
  userDataDir: string
  context: ServiceContext
  journal: Journal
  desktop: BridgeDesktop
  events: Array<{ event: EventName; payload: unknown }>
  /** Everything main's log wrote. */
  logged: string[]
  /** Rewrites requests before they reach the simulator (to make it refuse a field). */
  rewrite: { body?: (path: string, body: Record<string, unknown>) => Record<string, unknown> }
  close(): Promise<void>
}

export async function startHarness(settleMs = 150): Promise<Harness> {
  const t = await startTestSandbox({ settleMs, now: Date.now })
  const userDataDir = await mkdtemp(join(tmpdir(), 'payout-desk-cards-'))
  const journal = await openJournal(join(userDataDir, 'journal'))
  const reconciler = createReconciler(journal)
  const desktop = createBridgeDesktop()
  const events: Harness['events'] = []
  const logged: string[] = []
  const log = createRedactingLog({
    error: (...parts: unknown[]) => void logged.push(parts.map(String).join(' ')),
    warn: (...parts: unknown[]) => void logged.push(parts.map(String).join(' ')),
  })
  const rewrite: Harness['rewrite'] = {}
  const fetchThrough: typeof fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input))
    if (rewrite.body && typeof init?.body === 'string') {
      const body = rewrite.body(url.pathname, JSON.parse(init.body) as Record<string, unknown>)
      return fetch(input, { ...init, body: JSON.stringify(body) })
    }
    return fetch(input, init)
  }
  const api = createPaymentsApi(
    createPaymentsClient({ baseUrl: t.sandbox.url, secretKey: SECRET_KEY, timeoutMs: 5000, fetch: fetchThrough }),
  )
  const context: ServiceContext = {
    userDataDir,
    log,
    emit: <E extends EventName>(event: E, payload: EventPayload<E>) => void events.push({ event, payload }),
    profiles: {} as ProfileService,
    apiFor: async () => ({ profileId: 'sandbox', mode: 'sandbox', api }),
    journal,
    reconciler,
    desktop,
    now: () => new Date(),
  }
  return {
    t,
    userDataDir,
    context,
    journal,
    desktop,
    events,
    logged,
    rewrite,
    async close() {
      await journal.close()
      await t.close()
      await rm(userDataDir, { recursive: true, force: true })
    },
  }
}

export const holderDraft = {
  first_name: 'Amara',
  last_name: 'Nwosu',
  email: 'amara@example.com',
  phone: '+2348012345678',
  date_of_birth: '1990-04-12',
  address: { street: '12 Marina Road', city: 'Lagos', state: 'Lagos', country: 'NG', zip_code: '101001' },
  country_identity: { type: 'bvn' as const, number: '22212345678' },
  identity: { type: 'passport' as const, number: 'A01234567', country: 'NG' },
}
