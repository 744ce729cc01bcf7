/**
 * A profile's limits and payee-check settings kept by main (decisions 127, 128): saved in the
 * settings file, read back by the next start, each change recorded with who, when, old and new,
 * one line per setting; another profile's stay its own; a value the channels refuse never lands.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createControlsStore } from '../../../../../../electron/main/services/limits'
import { createSettingsStore } from '../../../../../../electron/main/services/settings/settings-store'
import { channels } from '../../../../../../shared/ipc/contract'
import { systemTimeZone } from '../../../../../../shared/limits/payout-limits'

let directory: string
const at = new Date('2026-11-27T10:00:00.000Z')

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'controls-store-'))
})
afterEach(() => rm(directory, { recursive: true, force: true }))

async function opened() {
  const store = createControlsStore(createSettingsStore(directory, 'sandbox'), () => at)
  await store.load()
  return store
}

describe('the controls of a profile', () => {
  it('start with no limits and the default payee checks', async () => {
    const store = await opened()
    expect(store.of('acme').limits.rules).toEqual([])
    expect(store.of('acme').limits.hours).toBeNull()
    expect(store.of('acme').payeeChecks).toEqual({ multiple: '3', firstPaymentLimits: {} })
    expect(store.of('acme').changes).toEqual([])
  })

  it('are kept across a restart, with one audit line per setting changed', async () => {
    const store = await opened()
    await store.setLimits(
      'acme',
      // In the zone a profile starts with (this computer's): no zone change to record.
      { rules: [{ kind: 'daily_total', currency: 'NGN', value: '5000000' }], hours: null, timeZone: systemTimeZone() },
      'ada',
    )
    await store.setLimits(
      'acme',
      {
        rules: [
          { kind: 'daily_total', currency: 'NGN', value: '4000000' },
          { kind: 'daily_count', currency: 'NGN', value: '20' },
        ],
        hours: { from: '08:00', to: '18:00' },
        timeZone: 'Africa/Lagos',
      },
      'bola',
    )
    await store.setPayeeChecks('acme', { multiple: '2.5', firstPaymentLimits: { NGN: '500000' } }, 'ada')

    const again = await opened()
    expect(again.of('acme').limits.rules).toEqual([
      { kind: 'daily_total', currency: 'NGN', value: '4000000' },
      { kind: 'daily_count', currency: 'NGN', value: '20' },
    ])
    expect(again.of('acme').payeeChecks).toEqual({ multiple: '2.5', firstPaymentLimits: { NGN: '500000' } })
    expect(again.of('acme').changes).toEqual([
      { at: at.toISOString(), by: 'ada', setting: 'Daily total for NGN', old: 'none', new: '5,000,000.00' },
      { at: at.toISOString(), by: 'bola', setting: 'Daily total for NGN', old: '5,000,000.00', new: '4,000,000.00' },
      { at: at.toISOString(), by: 'bola', setting: 'Daily count for NGN', old: 'none', new: '20 payouts' },
      {
        at: at.toISOString(),
        by: 'bola',
        setting: 'Sending hours',
        old: 'any time',
        new: '08:00 to 18:00 (Africa/Lagos)',
      },
      { at: at.toISOString(), by: 'ada', setting: 'Unusual amount: multiple of the usual', old: '3', new: '2.5' },
      {
        at: at.toISOString(),
        by: 'ada',
        setting: 'Unusual first payment for NGN: above',
        old: 'none',
        new: '500,000.00',
      },
    ])
    // Another profile's are its own.
    expect(again.of('other').limits.rules).toEqual([])
    const file = JSON.parse(await readFile(join(directory, 'settings.json'), 'utf8')) as { controls: object }
    expect(Object.keys(file.controls)).toEqual(['acme'])
  })

  it('record nothing when nothing changed', async () => {
    const store = await opened()
    const limits = {
      rules: [{ kind: 'per_payout' as const, currency: 'KES' as const, value: '100' }],
      hours: null,
      timeZone: 'UTC',
    }
    await store.setLimits('acme', limits, 'ada')
    await store.setLimits('acme', limits, 'ada')
    expect(store.of('acme').changes).toHaveLength(1)
  })

  it('are refused at the channel when a value is not one, saying which', () => {
    const input = channels['limits:setPayeeChecks'].input
    const refused = input.safeParse({ payeeChecks: { multiple: '1', firstPaymentLimits: { NGN: 'lots' } } })
    expect(refused.error?.issues.map((issue) => issue.message)).toEqual([
      'The unusual-amount multiple "1" must be above 1',
      'First payment above, NGN: "lots" is not an amount above 0',
    ])
  })
})
