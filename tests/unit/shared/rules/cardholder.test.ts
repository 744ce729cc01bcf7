import { describe, expect, it } from 'vitest'
import type { CardholderDraft } from '../../../../shared/domain/cards'
import {
  IDENTITY_FILE_MAX_BYTES,
  ISO_COUNTRY_CODES,
  bvnProblem,
  cardholderProblems,
  countryCodeProblem,
  dateOfBirthProblem,
  identityFileKind,
  identityFileEndProblem,
  identityFileProblem,
  identityTypeProblem,
  localDay,
} from '../../../../shared/rules/cardholder'

const PNG_HEAD = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]
const JPEG_HEAD = [0xff, 0xd8, 0xff, 0xe0, 0, 16]
const PDF_HEAD = [...Buffer.from('%PDF-1.7\n')]

const draft = (overrides: Partial<CardholderDraft> = {}): CardholderDraft => ({
  first_name: 'Amara',
  last_name: 'Nwosu',
  email: 'amara@example.com',
  phone: '+2348012345678',
  date_of_birth: '1990-04-12',
  address: { street: '12 Marina Road', city: 'Lagos', state: 'Lagos', country: 'NG', zip_code: '101001' },
  country_identity: { type: 'bvn', number: '22212345678' },
  identity: { type: 'passport', number: 'A01234567', country: 'NG' },
  ...overrides,
})

describe('identity types', () => {
  it('accepts the four document types of spec 8 and nothing else', () => {
    for (const type of ['nin', 'voters_card', 'drivers_license', 'passport'])
      expect(identityTypeProblem(type)).toBeNull()
    expect(identityTypeProblem('bvn')).toMatch(/Choose the identity document/)
    expect(identityTypeProblem('Passport')).not.toBeNull()
  })
})

describe('BVN', () => {
  it('is exactly 11 digits', () => {
    expect(bvnProblem('22212345678')).toBeNull()
    expect(bvnProblem('')).toBe('Enter the BVN.')
    expect(bvnProblem('2221234567')).toBe('A BVN is exactly 11 digits.')
    expect(bvnProblem('222123456789')).toBe('A BVN is exactly 11 digits.')
    expect(bvnProblem('2221234567a')).toBe('A BVN is exactly 11 digits.')
    expect(bvnProblem(' 22212345678')).toBe('A BVN is exactly 11 digits.')
  })
})

describe('country codes', () => {
  it('lists the 249 assigned ISO 3166 alpha-2 codes once each, in order', () => {
    expect(ISO_COUNTRY_CODES).toHaveLength(249)
    expect(new Set(ISO_COUNTRY_CODES).size).toBe(249)
    expect([...ISO_COUNTRY_CODES].sort()).toEqual([...ISO_COUNTRY_CODES])
    for (const code of ['NG', 'KE', 'GH', 'ZA', 'US', 'GB', 'SS', 'AX']) {
      expect(countryCodeProblem(code)).toBeNull()
    }
  })

  it('refuses lower case, alpha-3, unassigned and empty codes', () => {
    expect(countryCodeProblem('ng')).toMatch(/ISO 3166 alpha-2/)
    expect(countryCodeProblem('NGA')).toMatch(/ISO 3166 alpha-2/)
    expect(countryCodeProblem('ZZ')).toMatch(/ISO 3166 alpha-2/)
    expect(countryCodeProblem('UK')).toMatch(/ISO 3166 alpha-2/)
    expect(countryCodeProblem('')).toBe('Choose a country.')
  })

  it('every code has a name in Intl.DisplayNames (the renderer shows names)', () => {
    const names = new Intl.DisplayNames(['en'], { type: 'region' })
    for (const code of ISO_COUNTRY_CODES) expect(names.of(code)).not.toBe(code)
  })
})

describe('date of birth', () => {
  it('accepts an adult on the day of their 18th birthday, not the day before', () => {
    expect(dateOfBirthProblem('2008-11-22', '2026-11-22')).toBeNull()
    expect(dateOfBirthProblem('2008-11-23', '2026-11-22')).toBe('The cardholder must be at least 18 years old.')
    expect(dateOfBirthProblem('1990-04-12', '2026-11-22')).toBeNull()
  })

  it('works from the machine clock too: 18 years ago today is an adult', () => {
    const today = new Date()
    const birthday = new Date(today.getFullYear() - 18, today.getMonth(), today.getDate())
    // 29 February 18 years back does not exist in every year: the clock test then uses the 28th.
    if (birthday.getMonth() !== today.getMonth()) birthday.setDate(0)
    const dayBefore = new Date(birthday.getFullYear(), birthday.getMonth(), birthday.getDate() + 1)
    expect(dateOfBirthProblem(localDay(birthday), localDay(today))).toBeNull()
    expect(dateOfBirthProblem(localDay(dayBefore), localDay(today))).toMatch(/at least 18/)
  })

  it('someone born on 29 February comes of age on 1 March of a common year', () => {
    expect(dateOfBirthProblem('2008-02-29', '2026-02-28')).toMatch(/at least 18/)
    expect(dateOfBirthProblem('2008-02-29', '2026-03-01')).toBeNull()
  })

  it('refuses dates that do not exist, other formats, the future and empty', () => {
    expect(dateOfBirthProblem('1990-02-30', '2026-11-22')).toBe('Use a real date in the form YYYY-MM-DD.')
    expect(dateOfBirthProblem('12/04/1990', '2026-11-22')).toBe('Use a real date in the form YYYY-MM-DD.')
    expect(dateOfBirthProblem('2027-01-01', '2026-11-22')).toBe('The date of birth is in the future.')
    expect(dateOfBirthProblem('1899-12-31', '2026-11-22')).toBe('The date of birth is before 1900.')
    expect(dateOfBirthProblem('', '2026-11-22')).toBe('Enter the date of birth.')
  })
})

describe('identity document file', () => {
  it('refuses a document cut short: a PNG without IEND, a JPEG without its end marker, a PDF without %%EOF', () => {
    const bytes = (...parts: Array<string | number[]>) =>
      Uint8Array.from(parts.flatMap((part) => (typeof part === 'string' ? [...Buffer.from(part, 'latin1')] : part)))
    expect(identityFileEndProblem('png', bytes([0, 0, 0, 0], 'IEND', [0xae, 0x42, 0x60, 0x82]))).toBeNull()
    expect(identityFileEndProblem('jpeg', bytes([0x12, 0xff, 0xd9]))).toBeNull()
    expect(identityFileEndProblem('jpeg', bytes([0x12, 0xff, 0xd9], 'trailer after the image'))).toBeNull()
    expect(identityFileEndProblem('pdf', bytes('endobj\n%%EOF\r\n'))).toBeNull()
    expect(identityFileEndProblem('png', bytes('IDAT', [1, 2, 3]))).toBe(
      'The file starts as a PNG image but is cut short (it has no end): save or scan the document again.',
    )
    expect(identityFileEndProblem('jpeg', bytes([0xff, 0xd8, 0xff, 0xe0, 0x12]))).toMatch(/JPEG image but is cut short/)
    expect(identityFileEndProblem('pdf', bytes('1 0 obj <<'))).toMatch(/PDF but is cut short/)
  })

  it('tells JPEG, PNG and PDF by their first bytes, whatever the name', () => {
    expect(identityFileKind(Uint8Array.from(JPEG_HEAD))).toBe('jpeg')
    expect(identityFileKind(Uint8Array.from(PNG_HEAD))).toBe('png')
    expect(identityFileKind(Uint8Array.from(PDF_HEAD))).toBe('pdf')
    expect(identityFileKind(Uint8Array.from([...Buffer.from('GIF89a')]))).toBeNull()
    expect(identityFileKind(Uint8Array.from([0x89, 0x50, 0x4e, 0x47]))).toBeNull()
    expect(identityFileKind(new Uint8Array())).toBeNull()
  })

  it('accepts exactly 5 MB and refuses one byte more with a clear message', () => {
    const head = Uint8Array.from(PNG_HEAD)
    expect(identityFileProblem(head, IDENTITY_FILE_MAX_BYTES)).toEqual({ kind: 'png', problem: null })
    expect(identityFileProblem(head, IDENTITY_FILE_MAX_BYTES + 1)).toEqual({
      kind: null,
      problem: 'The file is larger than the 5 MB limit (5.0 MB). Scan or export it at a lower resolution.',
    })
    expect(identityFileProblem(head, 7 * 1024 * 1024).problem).toMatch(
      /^The file is larger than the 5 MB limit \(7\.0 MB\)/,
    )
    expect(identityFileProblem(head, 0).problem).toBe('The file is empty.')
    expect(identityFileProblem(Uint8Array.from([...Buffer.from('hello')]), 5).problem).toMatch(/not a JPEG, PNG or PDF/)
  })
})

describe('the whole cardholder', () => {
  it('has no problems when every field is right; phone is optional', () => {
    expect(cardholderProblems(draft(), '2026-11-22')).toEqual({})
    expect(cardholderProblems(draft({ phone: '' }), '2026-11-22')).toEqual({})
  })

  it('names each problem by the field path the service uses', () => {
    const problems = cardholderProblems(
      draft({
        first_name: ' ',
        phone: '12',
        date_of_birth: '2015-01-01',
        address: { street: 'x', city: '', state: 'Lagos', country: 'Nigeria', zip_code: '1' },
        country_identity: { type: 'bvn', number: '123' },
        identity: { type: 'passport', number: '', country: 'ng' },
      }),
      '2026-11-22',
    )
    expect(problems).toEqual({
      first_name: 'Enter the first name.',
      phone: 'Use 7 to 15 digits, optionally starting with +.',
      date_of_birth: 'The cardholder must be at least 18 years old.',
      'address.city': 'Enter the city.',
      'address.country': 'Use an ISO 3166 alpha-2 country code (for example NG).',
      'country_identity.number': 'A BVN is exactly 11 digits.',
      'identity.number': 'Enter the document number.',
      'identity.country': 'Use an ISO 3166 alpha-2 country code (for example NG).',
    })
  })
})
