/** The setting of a profile's pace ceiling over IPC (decision 144): a whole number from 1 to 32, never above. */
import { describe, expect, it } from 'vitest'
import { channels } from '../../../../shared/ipc/contract'

const input = channels['profiles:setPaceCeiling'].input

describe('profiles:setPaceCeiling', () => {
  it('takes a whole number of requests from 1 to 32 for a profile', () => {
    expect(input.safeParse({ id: 'sandbox', ceiling: 1 }).success).toBe(true)
    expect(input.safeParse({ id: 'sandbox', ceiling: 32 }).success).toBe(true)
  })

  it('refuses raising it past 32, nothing, a fraction, a text and anything else', () => {
    expect(input.safeParse({ id: 'sandbox', ceiling: 33 }).success).toBe(false)
    expect(input.safeParse({ id: 'sandbox', ceiling: 0 }).success).toBe(false)
    expect(input.safeParse({ id: 'sandbox', ceiling: 4.5 }).success).toBe(false)
    expect(input.safeParse({ id: 'sandbox', ceiling: '8' }).success).toBe(false)
    expect(input.safeParse({ id: 'sandbox' }).success).toBe(false)
    expect(input.safeParse({ id: 'sandbox', ceiling: 8, extra: true }).success).toBe(false)
  })
})
