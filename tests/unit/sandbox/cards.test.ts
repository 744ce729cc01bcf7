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

describe('cardholders and cards: every rule', () => {
  it('accepts every identity type (nin, voters_card, drivers_license, passport) and requires every field', async () => {
    for (const type of ['nin', 'voters_card', 'drivers_license', 'passport']) {
      const answer = await t.api(
        'POST',
        '/api/v1/cardholders',
        cardholder({ identity: { type, number: 'ID-1', image: PNG_BASE64, country: 'NG' } }),
      )
      expect(answer.status, type).toBe(200)
      expect(answer.body.data.identity, type).toEqual({ type, number: 'ID-1', country: 'NG' })
    }
    const empty = await t.api('POST', '/api/v1/cardholders', {})
    expect(empty.status).toBe(400)
    expect(empty.body).toEqual(
      invalid({
        first_name: 'is required',
        last_name: 'is required',
        email: 'is required',
        date_of_birth: 'is required',
        address: 'is required',
        country_identity: 'is required',
        identity: 'is required',
      }),
    )
    const parts = await t.api(
      'POST',
      '/api/v1/cardholders',
      cardholder({ address: {}, country_identity: {}, identity: {}, phone: undefined }),
    )
    expect(parts.body).toEqual(
      invalid({
        'address.street': 'is required',
        'address.city': 'is required',
        'address.state': 'is required',
        'address.country': 'is required',
        'address.zip_code': 'is required',
        'country_identity.type': 'is required',
        'country_identity.number': 'is required',
        'identity.type': 'is required',
        'identity.number': 'is required',
        'identity.image': 'is required',
        'identity.country': 'is required',
      }),
    )
    // phone is optional: the echo carries phone_number null.
    const noPhone = await t.api('POST', '/api/v1/cardholders', cardholder({ phone: undefined }))
    expect(noPhone.body.data.phone_number).toBeNull()
    for (const image of ['iVBORw0KGgo', 'data:text/plain;base64,aGVsbG8=', '====']) {
      const bad = await t.api(
        'POST',
        '/api/v1/cardholders',
        cardholder({ identity: { type: 'nin', number: '1', image, country: 'NG' } }),
      )
      expect(bad.body, image).toEqual(invalid({ 'identity.image': 'must be a Base64 image' }))
    }
  })

  it('requires type, refuses other type values, and issues visa when asked', async () => {
    const holder = await createHolder()
    const base = { currency: 'USD', card_holder_reference: holder }
    expect((await t.api('POST', '/api/v1/cards', { ...base, reference: 'c-type-1' })).body).toEqual(
      invalid({ type: 'is required' }),
    )
    expect((await t.api('POST', '/api/v1/cards', { ...base, reference: 'c-type-2', type: 'plastic' })).body).toEqual(
      invalid({ type: 'must be one of: physical, virtual' }),
    )
    expect((await t.api('POST', '/api/v1/cards', { type: 'virtual' })).body).toEqual(
      invalid({ currency: 'is required', card_holder_reference: 'is required', reference: 'is required' }),
    )
    await t.api('POST', '/api/v1/cards', { ...base, reference: 'c-visa-1', type: 'virtual', brand: 'visa' })
    const visa = (await t.api('GET', '/api/v1/cards/c-visa-1')).body.data
    expect(visa).toMatchObject({ brand: 'visa', first_six: '453201', pan: expect.stringMatching(/^453201\d{10}$/) })
    await t.api('POST', '/api/v1/cards', { ...base, reference: 'c-mc-1', type: 'virtual', brand: 'mastercard' })
    expect((await t.api('GET', '/api/v1/cards/c-mc-1')).body.data.brand).toBe('mastercard')
  })

  it('issues exactly 50 cards from the seeded 50.00 USD issuing balance, then refuses', async () => {
    const holder = await createHolder()
    for (let i = 1; i <= 50; i++) {
      const answer = await t.api('POST', '/api/v1/cards', {
        currency: 'USD',
        card_holder_reference: holder,
        reference: `burn-${i}`,
        type: 'virtual',
      })
      expect(answer.status, `card ${i}`).toBe(200)
    }
    expect((await t.api('GET', '/__sandbox/balances')).body.data.issuing_USD).toBe('0.00')
    const refused = await t.api('POST', '/api/v1/cards', {
      currency: 'USD',
      card_holder_reference: holder,
      reference: 'burn-51',
      type: 'virtual',
    })
    expect(refused.status).toBe(400)
    expect(refused.body).toEqual(rejection('Insufficient issuing balance'))
    expect((await t.api('GET', '/api/v1/cards')).body.data.paging.total_items).toBe(50)
  })

  it('stays pending until exactly settleMs, then is active (list and details agree)', async () => {
    const holder = await createHolder()
    await t.api('POST', '/api/v1/cards', {
      currency: 'USD',
      card_holder_reference: holder,
      reference: 'edge-card',
      type: 'virtual',
    })
    t.clock.advance(999)
    expect((await t.api('GET', '/api/v1/cards/edge-card')).body.data.status).toBe('pending')
    expect((await t.api('GET', '/api/v1/cards?status=pending')).body.data.paging.total_items).toBe(1)
    t.clock.advance(1)
    expect((await t.api('GET', '/api/v1/cards/edge-card')).body.data.status).toBe('active')
    expect((await t.api('GET', '/api/v1/cards?status=pending')).body.data.paging.total_items).toBe(0)
    expect((await t.api('GET', '/api/v1/cards?status=active')).body.data.data[0].reference).toBe('edge-card')
  })

  it('filters the list by end_date alone and refuses bad end_date, type and paging values', async () => {
    const holder = await createHolder()
    await t.api('POST', '/api/v1/cards', {
      currency: 'USD',
      card_holder_reference: holder,
      reference: 'day-1',
      type: 'virtual',
    })
    t.clock.advance(24 * 60 * 60 * 1000)
    await t.api('POST', '/api/v1/cards', {
      currency: 'USD',
      card_holder_reference: holder,
      reference: 'day-2',
      type: 'virtual',
    })
    const until15 = await t.api('GET', '/api/v1/cards?end_date=2026-01-15')
    expect(until15.body.data.data.map((c: { reference: string }) => c.reference)).toEqual(['day-1'])
    const until14 = await t.api('GET', '/api/v1/cards?end_date=2026-01-14')
    expect(until14.body.data).toEqual({ data: [], paging: { total_items: 0, page_size: 10, current: 1, count: 0 } })
    const bad = await t.api('GET', '/api/v1/cards?end_date=2026-13-01&type=plastic&page=0&limit=101')
    expect(bad.status).toBe(400)
    expect(bad.body).toEqual(
      invalid({ type: 'must be one of: virtual, physical', end_date: 'must be a date in the form YYYY-MM-DD' }),
    )
    expect((await t.api('GET', '/api/v1/cards?page=0&limit=101')).body).toEqual(
      invalid({ page: 'must be a positive integer', limit: 'must be an integer from 1 to 100' }),
    )
    const page2 = await t.api('GET', '/api/v1/cards?limit=1&page=2')
    expect(page2.body.data.data.map((c: { reference: string }) => c.reference)).toEqual(['day-1'])
    expect(page2.body.data.paging).toEqual({ total_items: 2, page_size: 1, current: 2, count: 2 })
  })
})
