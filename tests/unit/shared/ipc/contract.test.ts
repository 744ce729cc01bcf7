import { describe, expect, it } from 'vitest'
import { buildWindowApi, channelNames, channels, eventNames } from '../../../../shared/ipc/contract'

describe('IPC contract', () => {
  it('names every channel domain:action', () => {
    for (const name of channelNames) expect(name).toMatch(/^[a-z]+:[a-z][A-Za-z]*$/)
    for (const name of eventNames) expect(name).toMatch(/^[a-z]+:[a-z][A-Za-z]*$/)
  })

  it('gives every channel an input schema', () => {
    for (const name of channelNames) expect(typeof channels[name].input.safeParse).toBe('function')
  })

  it('builds the window API as named functions per domain, with subscribers that unsubscribe', async () => {
    const invoked: Array<[string, unknown]> = []
    const subscribed: string[] = []
    const unsubscribed: string[] = []
    const api = buildWindowApi(
      async (channel, input) => {
        invoked.push([channel, input])
        return { ok: true, data: null }
      },
      (event) => {
        subscribed.push(event)
        return () => unsubscribed.push(event)
      },
    )
    await api.profiles.activate({ id: 'sandbox' })
    await api.profiles.list()
    expect(invoked).toEqual([
      ['profiles:activate', { id: 'sandbox' }],
      ['profiles:list', undefined],
    ])
    const stop = api.profiles.onChanged(() => undefined)
    stop()
    expect(subscribed).toEqual(['profiles:changed'])
    expect(unsubscribed).toEqual(['profiles:changed'])
    // One function per channel and nothing generic: no invoke, no send, no on.
    const functions = Object.values(api).flatMap((domain) => Object.keys(domain as object))
    expect(functions).toHaveLength(channelNames.length + eventNames.length)
    expect(functions).not.toContain('invoke')
  })
})
