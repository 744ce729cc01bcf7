/** Shared test plumbing: a sandbox on a random port, a typed fetch helper, a fake clock, polling. */
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../../electron/sandbox/index'

export const SECRET_KEY = 'sk_test_unit'
export const ENCRYPTION_KEY = 'unit-test-encryption-key-32bytes'
/** 2026-01-15 10:00:00 UTC: a fixed start so dates can be asserted exactly. */
export const T0 = Date.UTC(2026, 0, 15, 10, 0, 0)

export interface ApiAnswer {
  status: number
  headers: Headers
  // Tests read arbitrary JSON; a loose type keeps assertions short.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any
}

export class FakeClock {
  constructor(public time = T0) {}
  now = (): number => this.time
  advance(ms: number): void {
    this.time += ms
  }
}

export interface TestSandbox {
  sandbox: RunningSandbox
  clock: FakeClock
  api: (
    method: string,
    path: string,
    body?: unknown,
    init?: { key?: string | null; signal?: AbortSignal; rawBody?: string },
  ) => Promise<ApiAnswer>
  close: () => Promise<void>
}

/** Starts a sandbox on a random port with a fake clock (unless `now` is given) and admin on. */
export async function startTestSandbox(options: Partial<SandboxOptions> = {}): Promise<TestSandbox> {
  const clock = new FakeClock()
  const sandbox = await startSandbox({
    secretKey: SECRET_KEY,
    encryptionKey: ENCRYPTION_KEY,
    settleMs: 1000,
    admin: true,
    now: clock.now,
    ...options,
  })
  const api: TestSandbox['api'] = async (method, path, body, init = {}) => {
    const headers: Record<string, string> = {}
    const key = init.key === undefined ? SECRET_KEY : init.key
    if (key !== null) headers.authorization = `Bearer ${key}`
    let payload: string | undefined = init.rawBody
    if (body !== undefined) payload = JSON.stringify(body)
    if (payload !== undefined) headers['content-type'] = 'application/json'
    const response = await fetch(sandbox.url + path, {
      method,
      headers,
      body: payload,
      signal: init.signal,
      redirect: 'manual',
    })
    const text = await response.text()
    let parsed: unknown = text
    try {
      parsed = JSON.parse(text)
    } catch {
      // Non-JSON answers (HTML pages, the not-json fault) stay text.
    }
    return { status: response.status, headers: response.headers, body: parsed }
  }
  return { sandbox, clock, api, close: () => sandbox.close() }
}

/** Polls until the check returns a value, with a generous deadline (loaded 2-core machines). */
export async function pollUntil<T>(
  check: () => Promise<T | undefined>,
  deadlineMs = 10_000,
  intervalMs = 25,
): Promise<T> {
  const deadline = Date.now() + deadlineMs
  for (;;) {
    const value = await check()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error('pollUntil: deadline passed')
    await new Promise((resolve) => setTimeout(resolve, intervalMs))
  }
}

export const invalid = (details: Record<string, string>) => ({
  status: false,
  message: 'Invalid request data',
  data: details,
})
export const rejection = (message: string) => ({ status: false, message, data: {} })

/** The single-payout endpoint, and its body (spec 2.6) for a payout to a test bank account that succeeds. */
export const DISBURSE = '/merchant/api/v1/transactions/disburse'
export const payout = (reference: string, amount = 100) => ({
  reference,
  destination: {
    type: 'bank_account',
    amount,
    currency: 'NGN',
    bank_account: { bank: '044', account: '0123456789' },
    customer: { email: 'ops@example.com' },
  },
})
