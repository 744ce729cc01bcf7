/**
 * The renderer's window API built by name (without the contract's schemas) reaches exactly the
 * channels and events the contract-built API reaches, for every channel and event of the contract.
 */
import { describe, expect, it } from 'vitest'
import { buildWindowApi, channelNames, eventNames } from '../../../../shared/ipc/contract'
import { buildWindowApiByName } from '../../../../shared/ipc/window-api'
import type { Result } from '../../../../shared/result'

function recorder() {
  const calls: string[] = []
  const invoke = async (channel: string, input: unknown): Promise<Result<unknown>> => {
    calls.push(`invoke ${channel} ${JSON.stringify(input)}`)
    return { ok: true, data: null }
  }
  const subscribe = (event: string) => {
    calls.push(`subscribe ${event}`)
    return () => undefined
  }
  return { calls, invoke, subscribe }
}

function exercise(api: unknown): void {
  const byDomain = api as Record<string, Record<string, (argument: unknown) => unknown>>
  for (const name of channelNames) {
    const [domain = '', action = ''] = name.split(':')
    void byDomain[domain]?.[action]?.({ probe: name })
  }
  for (const name of eventNames) {
    const [domain = '', action = ''] = name.split(':')
    byDomain[domain]?.[`on${action.charAt(0).toUpperCase()}${action.slice(1)}`]?.(() => undefined)
  }
}

describe('window API by name', () => {
  it('maps every channel and event of the contract like the contract-built API', () => {
    const byContract = recorder()
    exercise(buildWindowApi(byContract.invoke, byContract.subscribe))
    const byName = recorder()
    exercise(buildWindowApiByName(byName.invoke, byName.subscribe))
    expect(byName.calls).toEqual(byContract.calls)
    expect(byName.calls).toHaveLength(channelNames.length + eventNames.length)
  })

  it('is not a thenable and has nothing under symbols or odd names', async () => {
    const { invoke, subscribe } = recorder()
    const api = buildWindowApiByName(invoke, subscribe) as unknown as Record<string | symbol, unknown>
    expect(api['then']).toBeUndefined()
    expect(api[Symbol.toPrimitive]).toBeUndefined()
    expect(api['Profiles']).toBeUndefined()
    const profiles = api['profiles'] as Record<string, unknown>
    expect(profiles['then']).toBeUndefined()
    expect(profiles['__v_skip']).toBeUndefined()
    expect(await Promise.resolve(api)).toBe(api)
  })
})
