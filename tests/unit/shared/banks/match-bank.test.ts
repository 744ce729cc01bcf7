/**
 * Bank names as people write them (decision 33), against the bundled NG and KE lists: exact names
 * give or take case, punctuation and suffixes; known short forms from bank-names.json; anything
 * looser only a suggestion; ambiguous and unknown names named as such; confirmed texts remembered.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { BANKS } from '../../../../electron/sandbox/catalog'
import { bankListJson } from '../../../../electron/sandbox/bank-list-json'
import { bankListFrom, bundledBanks } from '../../../../shared/banks/bank-list'
import { BankMatcher, bankTextKey, type BankMatch } from '../../../../shared/banks/match-bank'
import { editDistance } from '../../../../shared/text-compare'
import bankNames from '../../../../shared/banks/bank-names.json'

const NG = new BankMatcher(bundledBanks('NG'), 'NG')
const KE = new BankMatcher(bundledBanks('KE'), 'KE')

/** A match in a line: "exact 058 Guaranty Trust Bank", "ambiguous 011 214", "unknown". */
function brief(match: BankMatch): string {
  switch (match.kind) {
    case 'code':
    case 'exact':
    case 'alias':
    case 'remembered':
      return `${match.kind} ${match.bank.code} ${match.bank.name}`
    case 'ambiguous':
    case 'suggestion':
      return `${match.kind} ${match.candidates.map((bank) => bank.code).join(' ')}`
    default:
      return match.kind
  }
}

describe('the bundled bank list', () => {
  it('is the simulator catalogue for NG and KE, as `npm run bank-list` writes it', () => {
    expect(readFileSync(join(__dirname, '../../../../shared/banks/bank-list.json'), 'utf8')).toBe(bankListJson())
    expect(bundledBanks('NG')).toEqual(BANKS.filter((bank) => bank.country === 'NG'))
  })

  it('has the banks accountants name, with realistic codes, and the test codes 044, 033 and 058', () => {
    const names = (country: 'NG' | 'KE') => bundledBanks(country).map((bank) => `${bank.code} ${bank.name}`)
    expect(names('NG')).toEqual(
      expect.arrayContaining([
        '058 Guaranty Trust Bank',
        '033 United Bank for Africa',
        '044 Access Bank',
        '011 First Bank of Nigeria',
        '214 First City Monument Bank',
        '221 Stanbic IBTC Bank',
        '057 Zenith Bank',
      ]),
    )
    expect(names('KE')).toEqual(
      expect.arrayContaining([
        '01 KCB Bank Kenya',
        '11 Co-operative Bank of Kenya',
        '63 Diamond Trust Bank Kenya',
        '57 I&M Bank',
      ]),
    )
  })

  it('every alias names a code of the bundled list of its country', () => {
    for (const [country, aliases] of Object.entries(bankNames.aliases)) {
      const codes = bundledBanks(country as 'NG' | 'KE').map((bank) => bank.code)
      for (const code of Object.keys(aliases)) expect(codes, `${country} ${code}`).toContain(code)
    }
  })

  it('reads a --banks file: an array of entries, or the service response; other countries left out', () => {
    const entries = [
      { name: 'Access Bank', slug: 'access', code: '044', country: 'NG' },
      { name: 'KCB Bank Kenya', slug: 'kcb', code: '01', country: 'KE' },
    ]
    expect(bankListFrom(entries, 'NG')).toEqual([entries[0]])
    expect(bankListFrom({ status: true, message: 'Banks retrieved successfully', data: entries }, 'KE')).toEqual([
      entries[1],
    ])
    expect(() => bankListFrom({ banks: [] }, 'NG')).toThrow('expected an array of banks')
    expect(() => bankListFrom([{ name: 'X' }], 'NG')).toThrow('entry 1 has no "code" and "name"')
    expect(() => bankListFrom([entries[1]], 'NG')).toThrow('no NG bank in the list')
  })
})

describe('exact names, slugs and codes', () => {
  it.each([
    ['Guaranty Trust Bank', 'exact 058 Guaranty Trust Bank'],
    ['GUARANTY TRUST BANK PLC', 'exact 058 Guaranty Trust Bank'],
    ['guaranty trust', 'exact 058 Guaranty Trust Bank'],
    ['ACCESS BANK PLC', 'exact 044 Access Bank'],
    ['Access Bank Nigeria Limited', 'exact 044 Access Bank'],
    ['Access', 'exact 044 Access Bank'],
    ['United Bank for Africa', 'exact 033 United Bank for Africa'],
    ['United Bank For Africa Plc.', 'exact 033 United Bank for Africa'],
    ['First Bank of Nigeria', 'exact 011 First Bank of Nigeria'],
    ['FIRST BANK OF NIGERIA LTD', 'exact 011 First Bank of Nigeria'],
    ['First Bank', 'exact 011 First Bank of Nigeria'],
    ['First City Monument Bank', 'exact 214 First City Monument Bank'],
    ['Stanbic IBTC', 'exact 221 Stanbic IBTC Bank'],
    ['Zenith', 'exact 057 Zenith Bank'],
    ['zenith bank plc', 'exact 057 Zenith Bank'],
    ['gtbank', 'exact 058 Guaranty Trust Bank'],
    ['GT Bank', 'exact 058 Guaranty Trust Bank'],
    ['Moniepoint', 'exact 50515 Moniepoint MFB'],
    ['058', 'code 058 Guaranty Trust Bank'],
  ])('NG %j: %s', (text, expected) => expect(brief(NG.match(text))).toBe(expected))

  it.each([
    ['KCB', 'exact 01 KCB Bank Kenya'],
    ['KCB Bank Kenya Limited', 'exact 01 KCB Bank Kenya'],
    ['Co-operative Bank of Kenya', 'exact 11 Co-operative Bank of Kenya'],
    ['Diamond Trust Bank', 'exact 63 Diamond Trust Bank Kenya'],
    ['I&M Bank', 'exact 57 I&M Bank'],
    ['I & M Bank Ltd', 'exact 57 I&M Bank'],
    ['Stanbic', 'exact 31 Stanbic Bank Kenya'],
    ['Equity Bank', 'exact 68 Equity Bank Kenya'],
    ['68', 'code 68 Equity Bank Kenya'],
  ])('KE %j: %s', (text, expected) => expect(brief(KE.match(text))).toBe(expected))
})

describe('well-known short forms (bank-names.json)', () => {
  it.each([
    ['GTB', 'alias 058 Guaranty Trust Bank'],
    ['GTCO', 'alias 058 Guaranty Trust Bank'],
    ['GTBank PLC', 'exact 058 Guaranty Trust Bank'],
    ['GT', 'alias 058 Guaranty Trust Bank'],
    ['UBA', 'exact 033 United Bank for Africa'],
    ['U.B.A.', 'exact 033 United Bank for Africa'],
    ['FBN', 'alias 011 First Bank of Nigeria'],
    ['FirstBank', 'exact 011 First Bank of Nigeria'],
    ['FCMB', 'exact 214 First City Monument Bank'],
    ['Stanbic', 'alias 221 Stanbic IBTC Bank'],
    ['Diamond Bank', 'alias 044 Access Bank'],
  ])('NG %j: %s', (text, expected) => expect(brief(NG.match(text))).toBe(expected))

  it.each([
    ['Co-op', 'alias 11 Co-operative Bank of Kenya'],
    ['Coop Bank', 'exact 11 Co-operative Bank of Kenya'],
    ['DTB', 'alias 63 Diamond Trust Bank Kenya'],
    ['I&M', 'exact 57 I&M Bank'],
    ['Kenya Commercial Bank', 'alias 01 KCB Bank Kenya'],
    ['Barclays', 'alias 03 Absa Bank Kenya'],
  ])('KE %j: %s', (text, expected) => expect(brief(KE.match(text))).toBe(expected))

  it('a short form of one country is nothing in another', () => {
    expect(brief(KE.match('GTB'))).not.toMatch(/^(exact|alias)/)
    expect(brief(NG.match('KCB'))).not.toMatch(/^(exact|alias)/)
  })
})

describe('ambiguous names', () => {
  it('"First" is First Bank of Nigeria or First City Monument Bank', () => {
    expect(NG.match('First')).toEqual({
      kind: 'ambiguous',
      candidates: [
        { code: '011', name: 'First Bank of Nigeria' },
        { code: '214', name: 'First City Monument Bank' },
      ],
    })
    expect(brief(NG.match('FIRST'))).toBe('ambiguous 011 214')
  })

  it('two banks of a list with the same name are ambiguous, whatever the text', () => {
    const twins = new BankMatcher(
      [
        { code: '901', name: 'Twin Bank', slug: 'twin-a' },
        { code: '902', name: 'Twin Bank', slug: 'twin-b' },
      ],
      'NG',
    )
    expect(brief(twins.match('TWIN BANK PLC'))).toBe('ambiguous 901 902')
  })
})

describe('anything looser is only a suggestion', () => {
  it.each([
    ['Guarranty Trust', 'suggestion 058'],
    ['GTBnak', 'suggestion 058'],
    ['Zenit', 'suggestion 057'],
    ['Acess Bank', 'suggestion 044'],
    ['Guaranty', 'suggestion 058'],
    ['Standard', 'suggestion 068'],
    ['Trust', 'suggestion 058 102'],
  ])('NG %j: %s', (text, expected) => expect(brief(NG.match(text))).toBe(expected))

  it('KE "Equty" suggests Equity Bank Kenya', () => expect(brief(KE.match('Equty'))).toBe('suggestion 68'))
})

describe('unknown names and codes', () => {
  it.each(['Bank of Mars', 'Bank', 'PLC', '---', 'Chase'])('NG %j is unknown', (text) =>
    expect(NG.match(text)).toEqual({ kind: 'unknown' }),
  )

  it('digits that are no code are left to the code rules (unknown code, lost leading zero)', () => {
    expect(NG.match('58')).toEqual({ kind: 'not_a_name' })
    expect(NG.match('999')).toEqual({ kind: 'not_a_name' })
  })
})

describe('remembered choices', () => {
  it('a text this profile confirmed is matched to its code first, whatever its spelling', () => {
    const remembered = new Map([[bankTextKey('Trust'), '102']])
    const matcher = new BankMatcher(bundledBanks('NG'), 'NG', remembered)
    expect(brief(matcher.match('TRUST'))).toBe('remembered 102 Titan Trust Bank')
    expect(brief(matcher.match('  trust  '))).toBe('remembered 102 Titan Trust Bank')
    // A remembered code no longer in the list is forgotten.
    const stale = new BankMatcher(bundledBanks('NG'), 'NG', new Map([['trust', '777']]))
    expect(brief(stale.match('Trust'))).toBe('suggestion 058 102')
  })

  it('groups texts by their letters and digits', () => {
    expect(bankTextKey('GT Bank')).toBe(bankTextKey('gtbank'))
    expect(bankTextKey('Co-op')).toBe('coop')
    expect(bankTextKey('Adéwálé')).toBe('adewale')
  })
})

describe('edit distance', () => {
  it('counts a transposition as one and stops past the limit', () => {
    expect(editDistance('gtbnak', 'gtbank', 2)).toBe(1)
    expect(editDistance('zenit', 'zenith', 1)).toBe(1)
    expect(editDistance('access', 'zenith', 2)).toBe(3)
  })
})

describe('a bank named inside a longer name (decision 33)', () => {
  it('knows OPay by its legal name, and suggests a bank whose whole name stands in a longer one', () => {
    expect(brief(NG.match('Opay Digital Services Ltd'))).toBe('alias 999992 OPay')
    expect(brief(NG.match('OPAY DIGITAL SERVICES LIMITED'))).toBe('alias 999992 OPay')
    expect(brief(NG.match('Kuda Microfinance Bank, Yaba branch'))).toBe('suggestion 50211')
    expect(brief(NG.match('Moniepoint MFB Ikeja'))).toBe('suggestion 50515')
    // A short form of fewer than three letters is never found inside a name.
    expect(brief(NG.match('GT Holdings Ventures'))).not.toContain('058')
    expect(brief(NG.match('Lotus Bank'))).toBe('unknown')
  })

  it('never applies it: a name inside a longer one is only a suggestion', () => {
    expect(NG.match('Wema Bank Agency Banking Unit').kind).toBe('suggestion')
    expect(KE.match('Equity Bank Kenya Ltd, Kenyatta Avenue branch').kind).toBe('suggestion')
  })
})
