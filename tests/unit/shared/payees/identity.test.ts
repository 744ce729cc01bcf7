/** Who a payment is for: the payee id, else the e-mail, else the name normalised. */
import { describe, expect, it } from 'vitest'
import { maybeSamePayee, payeeIdentity, sharedEmails } from '../../../../shared/payees/identity'

describe('payee identity', () => {
  it('prefers the payee id, then the e-mail, then the name', () => {
    expect(payeeIdentity({ payeeId: 'E017', email: 'ada@x.ng', name: 'Ada Obi' })).toMatchObject({
      key: 'id:e017',
      by: 'id',
    })
    expect(payeeIdentity({ email: ' Ada@X.ng ', name: 'Ada Obi' })).toMatchObject({
      key: 'email:ada@x.ng',
      by: 'email',
    })
    expect(payeeIdentity({ name: 'Ada Obi' })).toMatchObject({ key: 'name:ada obi', by: 'name' })
  })

  it('keeps zeros of an id: 017 and 17 are two payees', () => {
    expect(payeeIdentity({ payeeId: '017', name: 'A' }).key).not.toBe(payeeIdentity({ payeeId: '17', name: 'A' }).key)
  })

  it('reads one name however it is cased, ordered, titled or accented', () => {
    const keys = ['Ada Obi', 'OBI, Ada', 'Mrs. Ada  Obi', 'Adá Obi'].map((name) => payeeIdentity({ name }).key)
    expect(new Set(keys)).toEqual(new Set(['name:ada obi']))
  })

  it('takes two spellings of one name, identified in different ways, for one person; two ids never', () => {
    const byName = { key: 'name:adaeze obi', by: 'name' as const, name: 'Adaeze Obi' }
    expect(maybeSamePayee(byName, { key: 'name:adaeze obih', by: 'name', name: 'Adaeze Obih' })).toBe(true)
    expect(maybeSamePayee(byName, { key: 'id:e17', by: 'id', name: 'Adaeze Obi' })).toBe(true)
    expect(maybeSamePayee(byName, { key: 'name:musa bello', by: 'name', name: 'Musa Bello' })).toBe(false)
    expect(
      maybeSamePayee({ key: 'id:e17', by: 'id', name: 'Adaeze Obi' }, { key: 'id:e18', by: 'id', name: 'Adaeze Obi' }),
    ).toBe(false)
  })

  it('finds an e-mail that cannot tell payees apart (one address on rows of different people)', () => {
    const rows = [
      { email: 'payroll@acme.ng', name: 'Ada Obi' },
      { email: 'payroll@acme.ng', name: 'Musa Bello' },
      { email: 'ada@x.ng', name: 'Ada Obi' },
      { email: 'ada@x.ng', name: 'A. Obi' },
    ]
    expect(sharedEmails(rows)).toEqual(new Set(['payroll@acme.ng']))
  })
})
