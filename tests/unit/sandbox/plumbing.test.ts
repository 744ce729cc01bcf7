import { afterEach, describe, expect, it } from 'vitest'
import { startSandbox } from '../../../electron/sandbox/index'
import { ENCRYPTION_KEY, SECRET_KEY, startTestSandbox, type TestSandbox } from './helpers'

let t: TestSandbox | undefined
afterEach(async () => {
  await t?.close()
  t = undefined
})

describe('sandbox plumbing', () => {
  it('answers 401 with the error envelope when the key is missing or wrong', async () => {
    t = await startTestSandbox()
    for (const key of [null, 'sk_test_wrong', '']) {
      const answer = await t.api('GET', '/merchant/api/v1/misc/banks?countryCode=NG', undefined, { key })
      expect(answer.status).toBe(401)
      expect(answer.body).toEqual({ status: false, message: 'Invalid authorization key', data: {} })
    }
    const lowerCaseScheme = await fetch(`${t.sandbox.url}/merchant/api/v1/misc/banks`, {
      headers: { authorization: `Basic ${SECRET_KEY}` },
    })
    expect(lowerCaseScheme.status).toBe(401)
  })

  it('answers 404 for unknown paths and 405 for a known path with another method', async () => {
    t = await startTestSandbox()
    const unknown = await t.api('GET', '/merchant/api/v2/nothing')
    expect(unknown.status).toBe(404)
    expect(unknown.body).toEqual({ status: false, message: 'Resource not found', data: {} })
    const wrongMethod = await t.api('DELETE', '/merchant/api/v1/misc/banks')
    expect(wrongMethod.status).toBe(405)
    expect(wrongMethod.body.message).toBe('Method not allowed')
  })

  it('answers 400 "Invalid request data" to a body that is not JSON or not an object', async () => {
    t = await startTestSandbox()
    const broken = await t.api('POST', '/merchant/api/v1/transactions/disburse', undefined, {
      rawBody: '{"reference": ',
    })
    expect(broken.status).toBe(400)
    expect(broken.body).toEqual({ status: false, message: 'Invalid request data', data: { body: 'is not valid JSON' } })
    const array = await t.api('POST', '/merchant/api/v1/transactions/disburse', [1, 2])
    expect(array.status).toBe(400)
    expect(array.body).toEqual({
      status: false,
      message: 'Invalid request data',
      data: { body: 'must be a JSON object' },
    })
  })

  it('hides admin endpoints unless started with admin: true, and guards them with the key', async () => {
    t = await startTestSandbox({ admin: false })
    expect((await t.api('POST', '/__sandbox/reset')).status).toBe(404)
    expect((await t.api('DELETE', '/__sandbox/faults')).status).toBe(404)
    await t.close()
    t = await startTestSandbox({ admin: true })
    expect((await t.api('POST', '/__sandbox/reset', undefined, { key: 'nope' })).status).toBe(401)
    const reset = await t.api('POST', '/__sandbox/reset')
    expect(reset.status).toBe(200)
    expect(reset.body).toEqual({ status: true, message: 'Sandbox reset to its seeded state', data: {} })
  })

  it('refuses bad options: non-loopback host, short encryption key, empty secret', async () => {
    await expect(startSandbox({ secretKey: 'k', encryptionKey: ENCRYPTION_KEY, host: '0.0.0.0' })).rejects.toThrow(
      /loopback/,
    )
    await expect(startSandbox({ secretKey: 'k', encryptionKey: 'too-short' })).rejects.toThrow(/exactly 32 UTF-8 bytes/)
    await expect(startSandbox({ secretKey: '', encryptionKey: ENCRYPTION_KEY })).rejects.toThrow(/secretKey/)
  })

  it('listens on 127.0.0.1 with a random port by default and closes with keep-alive sockets open', async () => {
    const sandbox = await startSandbox({ secretKey: SECRET_KEY, encryptionKey: ENCRYPTION_KEY })
    expect(sandbox.url).toBe(`http://127.0.0.1:${sandbox.port}`)
    expect(sandbox.port).toBeGreaterThan(0)
    const answer = await fetch(`${sandbox.url}/merchant/api/v1/misc/banks`, {
      headers: { authorization: `Bearer ${SECRET_KEY}` },
    })
    expect(answer.status).toBe(200)
    await sandbox.close()
    await sandbox.close() // idempotent
    await expect(fetch(`${sandbox.url}/merchant/api/v1/misc/banks`)).rejects.toThrow()
  })

  it('derives trace ids and references from the seed: same seed, same values; another seed, others', async () => {
    const traceOf = async (seed: number): Promise<string> => {
      const sandbox = await startTestSandbox({ seed, settleMs: 0 })
      try {
        await sandbox.api('POST', '/merchant/api/v1/transactions/disburse', {
          reference: 'seeded-0001',
          destination: {
            type: 'bank_account',
            amount: 5,
            currency: 'NGN',
            bank_account: { bank: '044', account: '0123456789' },
            customer: { email: 'a@example.com' },
          },
        })
        return (await sandbox.api('GET', '/merchant/api/v1/transactions/seeded-0001')).body.data.trace_id as string
      } finally {
        await sandbox.close()
      }
    }
    const first = await traceOf(42)
    expect(first).toMatch(/^\d{30}$/)
    expect(await traceOf(42)).toBe(first)
    expect(await traceOf(43)).not.toBe(first)
  })
})
