/** `bulk:rows` reads a run's rows in pages, `bulk:rowsDigest`, `bulk:panels` and `bulk:findRows` the rest: what their inputs accept. */
import { describe, expect, it } from 'vitest'
import { channels } from '../../../../shared/ipc/contract'

const runId = 'BR20260101000000abcdef0000'

describe('bulk:rows input', () => {
  const input = channels['bulk:rows'].input

  it('takes a run alone (every row) or a page of it', () => {
    expect(input.safeParse({ runId }).success).toBe(true)
    expect(input.safeParse({ runId, offset: 0, limit: 5000 }).success).toBe(true)
    expect(input.safeParse({ runId, offset: 95_000, limit: 5000 }).success).toBe(true)
  })

  it('refuses a negative or fractional offset and a limit out of bounds', () => {
    expect(input.safeParse({ runId, offset: -1, limit: 10 }).success).toBe(false)
    expect(input.safeParse({ runId, offset: 1.5 }).success).toBe(false)
    expect(input.safeParse({ runId, limit: 0 }).success).toBe(false)
    expect(input.safeParse({ runId, limit: 100_001 }).success).toBe(false)
    expect(input.safeParse({ runId, page: 2 }).success).toBe(false)
  })
})

describe('bulk:rowsDigest and bulk:findRows inputs', () => {
  const digest = channels['bulk:rowsDigest'].input
  const find = channels['bulk:findRows'].input

  it('take a run, and one thing to find', () => {
    expect(digest.safeParse({ runId }).success).toBe(true)
    expect(channels['bulk:panels'].input.safeParse({ runId }).success).toBe(true)
    expect(find.safeParse({ runId, find: { kind: 'reference', reference: 'PAY-1' } }).success).toBe(true)
    expect(find.safeParse({ runId, find: { kind: 'paid' } }).success).toBe(true)
    const replace = { kind: 'replace', field: 'bank_code', find: 'gtb', replace: '058', wholeCell: true }
    expect(find.safeParse({ runId, find: replace }).success).toBe(true)
  })

  it('refuse what is not one of them, an empty find, a field not of the sheet, and anything more', () => {
    expect(digest.safeParse({ runId, offset: 0 }).success).toBe(false)
    // Once the rest of the rows kept whole (decision 165); the digest is codes alone (decision 171).
    expect(digest.safeParse({ runId, keptFrom: 1000 }).success).toBe(false)
    expect(channels['bulk:panels'].input.safeParse({ runId, offset: 0 }).success).toBe(false)
    expect(channels['bulk:panels'].input.safeParse({ runId: 'x' }).success).toBe(false)
    expect(find.safeParse({ runId, find: { kind: 'sort', by: 'amount' } }).success).toBe(false)
    expect(find.safeParse({ runId, find: { kind: 'reference', reference: '' } }).success).toBe(false)
    const replace = { kind: 'replace', field: 'bank_code', find: '', replace: '058', wholeCell: true }
    expect(find.safeParse({ runId, find: replace }).success).toBe(false)
    expect(find.safeParse({ runId, find: { ...replace, find: 'x', field: 'fee' } }).success).toBe(false)
    expect(find.safeParse({ runId, find: { kind: 'paid', rows: 5 } }).success).toBe(false)
    expect(find.safeParse({ runId: 'x', find: { kind: 'paid' } }).success).toBe(false)
  })
})
