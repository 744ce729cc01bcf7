import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { invalid, rejection, startTestSandbox, type TestSandbox } from './helpers'

const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='

const cardholder = (overrides: Record<string, unknown> = {}) => ({
  first_name: 'Amara',
  last_name: 'Nwosu',
  email: 'amara@example.com',
  phone: '2348012345678',
  date_of_birth: '1990-04-12',
  address: { street: '12 Marina Road', city: 'Lagos', state: 'Lagos', country: 'NG', zip_code: '101001' },
  country_identity: { type: 'bvn', number: '22212345678' },
  identity: { type: 'passport', number: 'A01234567', image: PNG_BASE64, country: 'NG' },
  ...overrides,
})

let t: TestSandbox
beforeEach(async () => {
  t = await startTestSandbox({ settleMs: 1000 })
})
afterEach(() => t.close())

async function createHolder(): Promise<string> {
  const answer = await t.api('POST', '/api/v1/cardholders', cardholder())
  expect(answer.status).toBe(200)
  return answer.body.data.reference as string
}

describe('cardholders', () => {
  it('creates a cardholder and echoes it with phone_number and a reference', async () => {
    const answer = await t.api('POST', '/api/v1/cardholders', cardholder())
    expect(answer.body).toEqual({
      status: true,
      message: 'Cardholder created successfully',
      data: {
        reference: expect.stringMatching(/^CHR_[a-z0-9]{16}$/),
        first_name: 'Amara',
        last_name: 'Nwosu',
        email: 'amara@example.com',
        phone_number: '2348012345678',
        date_of_birth: '1990-04-12',
        address: { street: '12 Marina Road', city: 'Lagos', state: 'Lagos', country: 'NG', zip_code: '101001' },
        country_identity: { type: 'bvn', number: '22212345678' },
        identity: { type: 'passport', number: 'A01234567', country: 'NG' },
        date_created: '2026-01-15T10:00:00.000Z',
      },
    })
    const dataUrl = await t.api(
      'POST',
      '/api/v1/cardholders',
      cardholder({
        identity: { type: 'nin', number: '1', image: `data:image/png;base64,${PNG_BASE64}`, country: 'NG' },
      }),
    )
    expect(dataUrl.status).toBe(200)
  })

  it('validates identity types, the base64 image and required fields', async () => {
    const answer = await t.api(
      'POST',
      '/api/v1/cardholders',
      cardholder({
        email: 'not-mail',
        date_of_birth: '1990-02-30',
        address: { street: 'x', city: 'Lagos', state: 'Lagos', country: 'NG' },
        country_identity: { type: 'nin', number: '123' },
        identity: { type: 'ssn', number: 'A1', image: 'not base64!', country: 'nga' },
      }),
    )
    expect(answer.status).toBe(400)
    expect(answer.body).toEqual(
      invalid({
        email: 'must be a valid e-mail address',
        date_of_birth: 'must be a date in the form YYYY-MM-DD',
        'address.zip_code': 'is required',
        'country_identity.type': 'must be one of: bvn',
        'country_identity.number': 'must be an 11-digit BVN',
        'identity.type': 'must be one of: nin, voters_card, drivers_license, passport',
        'identity.image': 'must be a Base64 image',
        'identity.country': 'must be an ISO 3166 alpha-2 country code',
      }),
    )
  })
})

describe('virtual cards', () => {
  it('issues a pending USD virtual card (mastercard by default) that becomes active, with details per 2.15', async () => {
    const holder = await createHolder()
    const created = await t.api('POST', '/api/v1/cards', {
      currency: 'USD',
      card_holder_reference: holder,
      reference: 'card-0001',
      type: 'virtual',
    })
    expect(created.body).toEqual({
      status: true,
      message: 'Card creation is pending',
      data: { reference: 'card-0001', currency: 'USD', type: 'virtual', holder_name: 'Amara Nwosu', status: 'pending' },
    })
    expect((await t.api('GET', '/__sandbox/balances')).body.data.issuing_USD).toBe('49.00')

    const pending = await t.api('GET', '/api/v1/cards/card-0001')
    expect(pending.body.data.status).toBe('pending')
    t.clock.advance(1000)
    const details = await t.api('GET', '/api/v1/cards/card-0001')
    expect(details.body.message).toBe('Card retrieved successfully')
    const data = details.body.data
    expect(data).toEqual({
      reference: 'card-0001',
      type: 'virtual',
      first_six: '539983',
      last_four: data.pan.slice(-4),
      pan: expect.stringMatching(/^539983\d{10}$/),
      cvv: expect.stringMatching(/^\d{3}$/),
      brand: 'mastercard',
      expiry_month: '01',
      expiry_year: '29',
      currency: 'USD',
      balance: 0,
      status: 'active',
      billing: {
        city: 'Lagos',
        state: 'Lagos',
        country: 'NG',
        address1: '12 Marina Road',
        address2: '',
        zip_code: '101001',
      },
      card_holder: {
        first_name: 'Amara',
        last_name: 'Nwosu',
        email: 'amara@example.com',
        phone_number: '2348012345678',
        address: { city: 'Lagos', state: 'Lagos', street: '12 Marina Road', country: 'NG', zip_code: '101001' },
      },
      date_created: '2026-01-15T10:00:00.000Z',
    })
    // Luhn-valid PAN.
    const digits = [...(data.pan as string)].reverse().map(Number)
    const sum = digits.reduce((acc, d, i) => acc + (i % 2 === 1 ? (d * 2 > 9 ? d * 2 - 9 : d * 2) : d), 0)
    expect(sum % 10).toBe(0)
  })

  it('is deterministic from the seed: the same requests give the same PAN and CVV', async () => {
    const run = async (): Promise<string> => {
      const holder = await createHolder()
      await t.api('POST', '/api/v1/cards', {
        currency: 'USD',
        card_holder_reference: holder,
        reference: 'card-seed',
        type: 'virtual',
        brand: 'visa',
      })
      const d = (await t.api('GET', '/api/v1/cards/card-seed')).body.data
      return `${holder} ${d.pan} ${d.cvv}`
    }
    const first = await run()
    await t.api('POST', '/__sandbox/reset')
    expect(await run()).toBe(first)
    expect(first).toMatch(/ 453201\d{10} \d{3}$/)
  })

  it('rejects physical cards, other currencies, unknown holders, duplicates and an empty issuing balance', async () => {
    const holder = await createHolder()
    const bad = await t.api('POST', '/api/v1/cards', {
      currency: 'NGN',
      card_holder_reference: holder,
      reference: 'card-0002',
      type: 'physical',
      brand: 'amex',
    })
    expect(bad.body).toEqual(
      invalid({
        currency: 'must be one of: USD',
        type: 'only virtual cards can be issued',
        brand: 'must be one of: mastercard, visa',
      }),
    )
    const unknown = await t.api('POST', '/api/v1/cards', {
      currency: 'USD',
      card_holder_reference: 'CHR_nobody',
      reference: 'card-0003',
      type: 'virtual',
    })
    expect(unknown.status).toBe(404)
    expect(unknown.body).toEqual(rejection('Cardholder not found'))
    await t.api('POST', '/api/v1/cards', {
      currency: 'USD',
      card_holder_reference: holder,
      reference: 'card-0004',
      type: 'virtual',
    })
    const dup = await t.api('POST', '/api/v1/cards', {
      currency: 'USD',
      card_holder_reference: holder,
      reference: 'card-0004',
      type: 'virtual',
    })
    expect(dup.status).toBe(409)
    expect(dup.body).toEqual(rejection('Duplicate card reference'))
    await t.api('POST', '/__sandbox/balances', { currency: 'issuing_USD', amount: '0.99' })
    const poor = await t.api('POST', '/api/v1/cards', {
      currency: 'USD',
      card_holder_reference: holder,
      reference: 'card-0005',
      type: 'virtual',
    })
    expect(poor.status).toBe(400)
    expect(poor.body).toEqual(rejection('Insufficient issuing balance'))
    expect((await t.api('GET', '/api/v1/cards/card-0005')).body).toEqual(rejection('Card not found'))
  })

  it('lists cards newest first with filters and the paging block', async () => {
    const holder = await createHolder()
    for (let i = 1; i <= 12; i++) {
      await t.api('POST', '/api/v1/cards', {
        currency: 'USD',
        card_holder_reference: holder,
        reference: `list-${String(i).padStart(2, '0')}`,
        type: 'virtual',
      })
      if (i === 6) t.clock.advance(24 * 60 * 60 * 1000) // cards 7-12 are created the next day, 1-6 become active
    }
    const all = await t.api('GET', '/api/v1/cards')
    expect(all.body.data.paging).toEqual({ total_items: 12, page_size: 10, current: 1, count: 2 })
    expect(all.body.data.data[0]).toEqual({
      reference: 'list-12',
      type: 'virtual',
      currency: 'USD',
      first_six: '539983',
      last_four: expect.stringMatching(/^\d{4}$/),
      status: 'pending',
      holder_name: 'Amara Nwosu',
      brand: 'mastercard',
      expiry_month: '01',
      expiry_year: '29',
      date_created: '2026-01-16T10:00:00.000Z',
    })
    const active = await t.api('GET', '/api/v1/cards?status=active&limit=4&page=2')
    expect(active.body.data.data.map((c: { reference: string }) => c.reference)).toEqual(['list-02', 'list-01'])
    expect(active.body.data.paging).toEqual({ total_items: 6, page_size: 4, current: 2, count: 2 })
    const firstDay = await t.api('GET', '/api/v1/cards?start_date=2026-01-15&end_date=2026-01-15&type=virtual')
    expect(firstDay.body.data.paging.total_items).toBe(6)
    const secondDay = await t.api('GET', '/api/v1/cards?start_date=2026-01-16')
    expect(secondDay.body.data.paging.total_items).toBe(6)
    const none = await t.api('GET', '/api/v1/cards?type=physical')
    expect(none.body.data).toEqual({ data: [], paging: { total_items: 0, page_size: 10, current: 1, count: 0 } })
    const bad = await t.api('GET', '/api/v1/cards?status=lost&start_date=15-01-2026')
    expect(bad.body).toEqual(
      invalid({
        status: 'must be one of: active, terminated, pending, deactivated, expired',
        start_date: 'must be a date in the form YYYY-MM-DD',
      }),
    )
  })
})
