/** The run content hash: what it covers, and that no value can pass for a separator. */
import { describe, expect, it } from 'vitest'
import type { TeamRunContent } from '../../../../shared/domain/team'
import { runContentHash, runContentProblem, runContentText, runContentTotal } from '../../../../shared/team/run-content'
import { diffRunVersions } from '../../../../shared/team/run-changes'

const content = (): TeamRunContent => ({
  currency: 'NGN',
  merchantBearsCost: true,
  description: 'March salaries',
  rows: [
    {
      reference: 'MAR-0001',
      amount: '1500.00',
      bank_code: '044',
      account_number: '0123456789',
      customer_name: 'Ada Obi',
      customer_email: 'ada@example.com',
      narration: 'March',
    },
    {
      reference: 'MAR-0002',
      amount: '250.50',
      bank_code: '058',
      account_number: '0001112223',
      customer_name: 'Bola Ade',
      customer_email: 'bola@example.com',
      narration: 'March',
    },
  ],
})

describe('run content hash', () => {
  it('changes with every field that decides where money goes, and with currency and fees', async () => {
    const base = await runContentHash(content())
    const variants: Array<(c: TeamRunContent) => void> = [
      (c) => (c.rows[0]!.reference = 'MAR-0009'),
      (c) => (c.rows[0]!.amount = '1500.01'),
      (c) => (c.rows[0]!.bank_code = '033'),
      (c) => (c.rows[0]!.account_number = '0123456788'),
      (c) => (c.rows[0]!.customer_name = 'Ada Obi '),
      (c) => (c.rows[0]!.customer_email = 'ada@example.org'),
      (c) => (c.rows[0]!.narration = 'April'),
      (c) => (c.currency = 'KES'),
      (c) => (c.merchantBearsCost = false),
      (c) => c.rows.reverse(),
      (c) => c.rows.pop(),
    ]
    for (const change of variants) {
      const changed = content()
      change(changed)
      expect(await runContentHash(changed)).not.toBe(base)
    }
  })

  it('leaves out the description, which decides nothing about money', async () => {
    const other = { ...content(), description: 'Other words' }
    expect(await runContentHash(other)).toBe(await runContentHash(content()))
  })

  it('escapes tabs, newlines and backslashes so two different rows never give the same text', async () => {
    const a = content()
    a.rows[0]!.customer_name = 'Ada\tObi'
    const b = content()
    b.rows[0]!.customer_name = 'Ada\\tObi'
    expect(runContentText(a)).not.toBe(runContentText(b))
    expect(runContentText(a)).toContain('Ada\\tObi')
    expect(runContentText(b)).toContain('Ada\\\\tObi')
    expect(await runContentHash(a)).not.toBe(await runContentHash(b))
    // A name holding a newline stays on its row's line.
    const c = content()
    c.rows[0]!.customer_name = 'Ada\nMAR-0002'
    expect(runContentText(c).split('\n')).toHaveLength(4 + 2 + 1)
  })

  it('is SHA-256 of the canonical text, in lower-case hex', async () => {
    expect(await runContentHash(content())).toMatch(/^[0-9a-f]{64}$/)
    expect(
      runContentText(content()).startsWith(
        'payout-desk run content v1\ncurrency:NGN\nmerchant_bears_cost:true\nrows:2\n',
      ),
    ).toBe(true)
  })

  it('refuses content the database would read differently', () => {
    const bad = content()
    bad.rows[1]!.amount = '250.5'
    expect(runContentProblem(bad)).toMatch(/row 2: the amount/)
    const zero = content()
    zero.rows[0]!.amount = '0.00'
    expect(runContentProblem(zero)).toMatch(/row 1/)
    const nul = content()
    nul.rows[0]!.narration = 'a\u0000b'
    expect(runContentProblem(nul)).toMatch(/NUL/)
    const half = content()
    half.rows[1]!.customer_name = 'Ada \ud83d'
    expect(runContentProblem(half)).toBe('row 2: customer_name holds a broken character (half of a UTF-16 pair)')
    const whole = content()
    whole.rows[1]!.customer_name = 'Ada \ud83d\ude42'
    expect(runContentProblem(whole)).toBeNull()
    expect(runContentProblem(content())).toBeNull()
  })

  it('totals exactly', () => {
    expect(runContentTotal([{ amount: '0.10' }, { amount: '0.20' }])).toBe('0.30')
    expect(runContentTotal([{ amount: '99999999999999.99' }, { amount: '0.01' }])).toBe('100000000000000.00')
    expect(runContentTotal([{ amount: '0.05' }])).toBe('0.05')
  })
})

describe('changes between versions', () => {
  it('names the payouts added, removed and changed, by reference', () => {
    const before = content().rows.map((row, index) => ({ ...row, position: index + 1 }))
    const after = [
      { ...before[1]!, position: 1, amount: '300.00' },
      { ...before[0]!, reference: 'MAR-0003', position: 2 },
    ]
    const head = { runId: 'R1', currency: 'NGN', merchantBearsCost: true }
    const changes = diffRunVersions(
      { ...head, version: 1 },
      before,
      { ...head, version: 2, merchantBearsCost: false },
      after,
    )
    expect(changes.added.map((row) => row.reference)).toEqual(['MAR-0003'])
    expect(changes.removed.map((row) => row.reference)).toEqual(['MAR-0001'])
    expect(changes.changed).toEqual([expect.objectContaining({ reference: 'MAR-0002', fields: ['amount'] })])
    expect(changes.moved).toBe(1)
    expect(changes.merchantBearsCost).toEqual({ from: true, to: false })
    expect(changes.currency).toBeNull()
  })
})
