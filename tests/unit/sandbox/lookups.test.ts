import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { invalid, rejection, startTestSandbox, type TestSandbox } from './helpers'

let t: TestSandbox
beforeAll(async () => {
  t = await startTestSandbox()
})
afterAll(() => t.close())

describe('lookups', () => {
  it('lists banks for NG (with the test codes 044, 033, 058), KE and ZA', async () => {
    const ng = await t.api('GET', '/merchant/api/v1/misc/banks?countryCode=NG')
    expect(ng.status).toBe(200)
    expect(ng.body.status).toBe(true)
    const codes = ng.body.data.map((b: { code: string }) => b.code)
    expect(codes).toEqual(expect.arrayContaining(['044', '033', '058']))
    expect(ng.body.data[0]).toEqual({ name: 'Access Bank', slug: 'access', code: '044', country: 'NG' })
    for (const country of ['KE', 'ZA']) {
      const answer = await t.api('GET', `/merchant/api/v1/misc/banks?countryCode=${country}`)
      expect(answer.body.data.length).toBeGreaterThan(3)
      expect(answer.body.data.every((b: { country: string }) => b.country === country)).toBe(true)
    }
    const gh = await t.api('GET', '/merchant/api/v1/misc/banks?countryCode=GH')
    expect(gh.status).toBe(400)
    expect(gh.body).toEqual(invalid({ countryCode: 'must be one of: NG, KE, ZA' }))
  })

  it('lists mobile money operators for KE and GH with min and max', async () => {
    const ke = await t.api('GET', '/merchant/api/v1/misc/mobile-money?countryCode=KE')
    expect(ke.body.data[0]).toEqual({
      name: 'M-Pesa',
      slug: 'safaricom-ke',
      code: 'MPESA',
      country: 'KE',
      min: 10,
      max: 150000,
    })
    const gh = await t.api('GET', '/merchant/api/v1/misc/mobile-money?countryCode=GH')
    expect(gh.body.data.map((o: { slug: string }) => o.slug)).toEqual(['mtn-gh', 'vodafone-gh', 'airteltigo-gh'])
    expect((await t.api('GET', '/merchant/api/v1/misc/mobile-money?countryCode=NG')).body).toEqual(
      invalid({ countryCode: 'must be one of: KE, GH' }),
    )
  })

  it('resolves bank accounts deterministically and refuses the unresolvable ones', async () => {
    const first = await t.api('POST', '/merchant/api/v1/misc/banks/resolve', {
      bank: '044',
      account: '0123456789',
      currency: 'NGN',
    })
    expect(first.status).toBe(200)
    expect(first.body.data).toMatchObject({ bank_name: 'Access Bank', bank_code: '044', account_number: '0123456789' })
    expect(first.body.data.account_name).toMatch(/^[A-Z]+ [A-Z]+$/)
    const again = await t.api('POST', '/merchant/api/v1/misc/banks/resolve', {
      bank: '044',
      account: '0123456789',
      currency: 'NG',
    })
    expect(again.body.data.account_name).toBe(first.body.data.account_name)
    const kenya = await t.api('POST', '/merchant/api/v1/misc/banks/resolve', {
      bank: '68',
      account: '1100223344',
      currency: 'KE',
    })
    expect(kenya.body.data.bank_name).toBe('Equity Bank Kenya')
    for (const account of ['0000000000', '1234567890']) {
      const none = await t.api('POST', '/merchant/api/v1/misc/banks/resolve', { bank: '058', account, currency: 'NGN' })
      expect(none.status).toBe(400)
      expect(none.body).toEqual(rejection('Unable to resolve bank account'))
    }
    const bad = await t.api('POST', '/merchant/api/v1/misc/banks/resolve', {
      bank: '999',
      account: '12',
      currency: 'ZA',
    })
    expect(bad.body).toEqual(
      invalid({
        account: 'must be 6 to 20 digits',
        currency: 'bank resolution is available for Nigeria and Kenya only',
      }),
    )
    const unknownBank = await t.api('POST', '/merchant/api/v1/misc/banks/resolve', {
      bank: '999',
      account: '0123456789',
      currency: 'NGN',
    })
    expect(unknownBank.body).toEqual(invalid({ bank: 'unknown bank code for NG' }))
    expect((await t.api('POST', '/merchant/api/v1/misc/banks/resolve', {})).body).toEqual(
      invalid({ bank: 'is required', account: 'is required', currency: 'is required' }),
    )
  })

  it('resolves Ghanaian mobile money accounts', async () => {
    const ok = await t.api('POST', '/merchant/api/v1/misc/mobile-money/resolve', {
      mobileMoneyCode: 'MTN',
      phoneNumber: '233241234567',
      currency: 'GHS',
    })
    expect(ok.body.data).toMatchObject({
      mobile_money_operator: 'MTN Mobile Money',
      mobile_money_code: 'MTN',
      phone_number: '233241234567',
    })
    expect(typeof ok.body.data.account_name).toBe('string')
    const none = await t.api('POST', '/merchant/api/v1/misc/mobile-money/resolve', {
      mobileMoneyCode: 'MTN',
      phoneNumber: '233000000000',
      currency: 'GH',
    })
    expect(none.body).toEqual(rejection('Unable to resolve mobile money account'))
    const kenya = await t.api('POST', '/merchant/api/v1/misc/mobile-money/resolve', {
      mobileMoneyCode: 'MPESA',
      phoneNumber: '254712345678',
      currency: 'KES',
    })
    expect(kenya.body).toEqual(
      invalid({
        currency: 'mobile money resolution is available for Ghana only',
        mobileMoneyCode: 'unknown mobile money code for GH',
      }),
    )
  })

  it('reports ZA availability with Available, Delayed and Unavailable, and only for ZAR', async () => {
    for (const type of ['bank_account', 'mobile_money']) {
      const answer = await t.api('POST', '/merchant/api/v1/payouts/availability', { type, currency: 'ZAR' })
      expect(answer.status).toBe(200)
      const statuses = new Set(answer.body.data.map((e: { status: string }) => e.status))
      expect([...statuses].sort()).toEqual(['Available', 'Delayed', 'Unavailable'])
      expect(answer.body.data[0]).toHaveProperty('nibss_bank_code', null)
      expect(answer.body.data[0]).toHaveProperty('country', 'ZA')
    }
    const ngn = await t.api('POST', '/merchant/api/v1/payouts/availability', { type: 'bank', currency: 'NGN' })
    expect(ngn.body).toEqual(
      invalid({
        type: 'must be one of: bank_account, mobile_money',
        currency: 'availability is reported for ZAR payouts only',
      }),
    )
  })
})

describe('lookups asserted exactly', () => {
  it('lists exactly the documented KE and ZA banks and GH operators with min and max', async () => {
    const codes = async (country: string) =>
      (await t.api('GET', `/merchant/api/v1/misc/banks?countryCode=${country}`)).body.data.map(
        (b: { code: string }) => b.code,
      )
    expect(await codes('KE')).toEqual([
      '01',
      '02',
      '03',
      '07',
      '10',
      '11',
      '12',
      '19',
      '31',
      '57',
      '63',
      '66',
      '68',
      '70',
      '72',
    ])
    expect(await codes('ZA')).toEqual(['632005', '470010', '250655', '198765', '051001', '679000', '888000'])
    const ng = await t.api('GET', '/merchant/api/v1/misc/banks?countryCode=NG')
    expect(ng.body.message).toBe('Banks retrieved successfully')
    expect(ng.body.data.filter((b: { code: string }) => ['044', '033', '058'].includes(b.code))).toEqual([
      { name: 'Access Bank', slug: 'access', code: '044', country: 'NG' },
      { name: 'Guaranty Trust Bank', slug: 'gtbank', code: '058', country: 'NG' },
      { name: 'United Bank for Africa', slug: 'uba', code: '033', country: 'NG' },
    ])
    const gh = await t.api('GET', '/merchant/api/v1/misc/mobile-money?countryCode=GH')
    expect(gh.body).toEqual({
      status: true,
      message: 'Mobile money operators retrieved successfully',
      data: [
        { name: 'MTN Mobile Money', slug: 'mtn-gh', code: 'MTN', country: 'GH', min: 1, max: 5000 },
        { name: 'Vodafone Cash', slug: 'vodafone-gh', code: 'VODAFONE', country: 'GH', min: 1, max: 5000 },
        { name: 'AirtelTigo Money', slug: 'airteltigo-gh', code: 'AIRTELTIGO', country: 'GH', min: 1, max: 3000 },
      ],
    })
    const ke = await t.api('GET', '/merchant/api/v1/misc/mobile-money?countryCode=KE')
    expect(ke.body.data[1]).toEqual({
      name: 'Airtel Money Kenya',
      slug: 'airtel-ke',
      code: 'AIRTELKE',
      country: 'KE',
      min: 10,
      max: 70000,
    })
  })

  it('resolves names deterministically: exact values, the same on a server with another seed', async () => {
    const bank = await t.api('POST', '/merchant/api/v1/misc/banks/resolve', {
      bank: '058',
      account: '0123456789',
      currency: 'NGN',
    })
    expect(bank.body).toEqual({
      status: true,
      message: 'Bank account resolved successfully',
      data: {
        bank_name: 'Guaranty Trust Bank',
        bank_code: '058',
        account_number: '0123456789',
        account_name: 'NJERI DLAMINI',
      },
    })
    // Another number, another name.
    const next = await t.api('POST', '/merchant/api/v1/misc/banks/resolve', {
      bank: '058',
      account: '0123456780',
      currency: 'NGN',
    })
    expect(next.body.data.account_name).toBe('CHINEDU BOATENG')
    const other = await startTestSandbox({ seed: 999 })
    try {
      const again = await other.api('POST', '/merchant/api/v1/misc/banks/resolve', {
        bank: '058',
        account: '0123456789',
        currency: 'NG',
      })
      expect(again.body.data.account_name).toBe(bank.body.data.account_name)
      const mobile = await other.api('POST', '/merchant/api/v1/misc/mobile-money/resolve', {
        mobileMoneyCode: 'VODAFONE',
        phoneNumber: '+233201234567',
        currency: 'GH',
      })
      expect(mobile.body).toEqual({
        status: true,
        message: 'Mobile money account resolved successfully',
        data: {
          mobile_money_operator: 'Vodafone Cash',
          mobile_money_code: 'VODAFONE',
          phone_number: '233201234567',
          account_name: 'KOFI MENSAH',
        },
      })
    } finally {
      await other.close()
    }
  })

  it('refuses the documented unresolvable numbers with 400 and the exact message', async () => {
    for (const [currency, bank] of [
      ['NGN', '044'],
      ['KES', '01'],
    ]) {
      for (const account of ['0000000000', '1234567890']) {
        const none = await t.api('POST', '/merchant/api/v1/misc/banks/resolve', { bank, account, currency })
        expect(none.status).toBe(400)
        expect(none.body).toEqual(rejection('Unable to resolve bank account'))
      }
    }
    const mobile = await t.api('POST', '/merchant/api/v1/misc/mobile-money/resolve', {
      mobileMoneyCode: 'AIRTELTIGO',
      phoneNumber: '233000000000',
      currency: 'GHS',
    })
    expect(mobile.status).toBe(400)
    expect(mobile.body).toEqual(rejection('Unable to resolve mobile money account'))
    expect((await t.api('POST', '/merchant/api/v1/misc/mobile-money/resolve', {})).body).toEqual(
      invalid({ mobileMoneyCode: 'is required', phoneNumber: 'is required', currency: 'is required' }),
    )
  })

  it('lists exact ZA availability entries and refuses a missing type or another currency', async () => {
    const mobile = await t.api('POST', '/merchant/api/v1/payouts/availability', {
      type: 'mobile_money',
      currency: 'ZAR',
    })
    expect(mobile.body).toEqual({
      status: true,
      message: 'Availability retrieved successfully',
      data: [
        {
          name: 'Vodacom M-Pesa',
          slug: 'vodacom-za',
          code: 'VODACOM',
          nibss_bank_code: null,
          country: 'ZA',
          status: 'Available',
        },
        { name: 'MTN MoMo', slug: 'mtn-za', code: 'MTNZA', nibss_bank_code: null, country: 'ZA', status: 'Delayed' },
        {
          name: 'Telkom Pay',
          slug: 'telkom-za',
          code: 'TELKOM',
          nibss_bank_code: null,
          country: 'ZA',
          status: 'Unavailable',
        },
      ],
    })
    const bank = await t.api('POST', '/merchant/api/v1/payouts/availability', { type: 'bank_account', currency: 'ZAR' })
    expect(bank.body.data.map((e: { slug: string; status: string }) => `${e.slug}:${e.status}`)).toEqual([
      'absa-za:Available',
      'capitec:Available',
      'fnb:Delayed',
      'nedbank:Available',
      'standard-bank-za:Unavailable',
    ])
    for (const currency of ['KES', 'GHS', 'NGN', 'zar']) {
      const answer = await t.api('POST', '/merchant/api/v1/payouts/availability', { type: 'bank_account', currency })
      expect(answer.status, currency).toBe(400)
      expect(answer.body, currency).toEqual(invalid({ currency: 'availability is reported for ZAR payouts only' }))
    }
    expect((await t.api('POST', '/merchant/api/v1/payouts/availability', { currency: 'ZAR' })).body).toEqual(
      invalid({ type: 'is required' }),
    )
  })
})
