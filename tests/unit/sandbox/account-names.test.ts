/**
 * A renamed account holder (a test control, admin on only): name resolution answers the new name
 * from then on, for bank accounts and mobile money alike, so the payee book's name drift can be
 * tested for real; a reset brings the catalog's name back; a bad body names its field.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startTestSandbox, type TestSandbox } from './helpers'

let t: TestSandbox
beforeEach(async () => {
  t = await startTestSandbox({ settleMs: 1000 })
})
afterEach(() => t.close())

const resolveBank = async (account: string) =>
  (await t.api('POST', '/merchant/api/v1/misc/banks/resolve', { bank: '044', account, currency: 'NGN' })).body.data
    .account_name

describe('an account holder renamed in the Sandbox', () => {
  it('resolve answers the new name from then on; a reset brings the old one back', async () => {
    expect(await resolveBank('0690000031')).toBe('ADAEZE OKAFOR')
    const renamed = await t.api('POST', '/__sandbox/accounts/0690000031/name', { name: 'ADAEZE OKAFOR-BELLO' })
    expect(renamed.status).toBe(200)
    expect(renamed.body.data).toEqual({ account: '0690000031', account_name: 'ADAEZE OKAFOR-BELLO' })
    expect(await resolveBank('0690000031')).toBe('ADAEZE OKAFOR-BELLO')
    // Other accounts are as they were.
    expect(await resolveBank('0690000032')).toBe('TUNDE ADEYEMI')
    await t.api('POST', '/__sandbox/reset', {})
    expect(await resolveBank('0690000031')).toBe('ADAEZE OKAFOR')
  })

  it('mobile money numbers too, with or without their plus', async () => {
    await t.api('POST', '/__sandbox/accounts/+233241234567/name', { name: 'KOFI MENSAH' })
    const resolved = await t.api('POST', '/merchant/api/v1/misc/mobile-money/resolve', {
      mobileMoneyCode: 'MTN',
      phoneNumber: '233241234567',
      currency: 'GHS',
    })
    expect(resolved.body.data.account_name).toBe('KOFI MENSAH')
  })

  it('a bad account or name is refused naming the field', async () => {
    const badName = await t.api('POST', '/__sandbox/accounts/0690000031/name', { name: '  ' })
    expect(badName.status).toBe(400)
    expect(JSON.stringify(badName.body)).toContain('name')
    expect((await t.api('POST', '/__sandbox/accounts/12ab/name', { name: 'X' })).status).toBe(400)
    const plain = await startTestSandbox({ settleMs: 1000, admin: false })
    try {
      expect((await plain.api('POST', '/__sandbox/accounts/0690000031/name', { name: 'X' })).status).toBe(404)
    } finally {
      await plain.close()
    }
  })
})
