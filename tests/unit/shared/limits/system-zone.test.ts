/**
 * The desk's own zone (a profile without limits reads "today" in it): read from the system at most
 * once a minute, since every batch of a run asks it; a zone changed on the computer (a laptop that
 * travels) is the desk's within the minute.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { SYSTEM_ZONE_READ_EVERY_MS, systemTimeZone } from '../../../../shared/limits/payout-limits'

const zoneBefore = process.env.TZ

afterEach(() => {
  if (zoneBefore === undefined) delete process.env.TZ
  else process.env.TZ = zoneBefore
})

describe("the system's zone", () => {
  it('is read again a minute after it was read, not before', () => {
    // Well after any read made so far in this process: this one reads the system.
    const start = Date.now() + 10 * SYSTEM_ZONE_READ_EVERY_MS
    process.env.TZ = 'Africa/Lagos'
    expect(systemTimeZone(start)).toBe('Africa/Lagos')
    process.env.TZ = 'Africa/Nairobi'
    expect(systemTimeZone(start + SYSTEM_ZONE_READ_EVERY_MS - 1)).toBe('Africa/Lagos')
    expect(systemTimeZone(start + SYSTEM_ZONE_READ_EVERY_MS)).toBe('Africa/Nairobi')
  })
})
