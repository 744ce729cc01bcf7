/** `bulk:rows` reads a run's rows in pages: what its input accepts. */
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
