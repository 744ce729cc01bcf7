/**
 * The renderer's side of the window API without the contract's schemas: its key on `window`, the
 * bridge token parameter, and a window API that derives each channel and event from the name it is
 * called by (`api.profiles.list()` -> 'profiles:list', `api.profiles.onChanged(fn)` ->
 * 'profiles:changed'). Importing the contract itself would put zod (~80 kB) into the first screen;
 * the names are checked by TypeScript here and by main's router at run time.
 */
import type { Result } from '../result'
import type { Channel, EventName, Unsubscribe, WindowApi } from './contract'

export { BRIDGE_TOKEN_PARAM, WINDOW_API_KEY } from './window-keys'

const DOMAIN = /^[a-z]+$/
const ACTION = /^[a-z][A-Za-z]*$/
const SUBSCRIBER = /^on([A-Z])([A-Za-z]*)$/

export function buildWindowApiByName(
  invoke: (channel: Channel, input: unknown) => Promise<Result<unknown>>,
  subscribe: (event: EventName, listener: (payload: unknown) => void) => Unsubscribe,
): WindowApi {
  const domains = new Map<string, object>()
  function domainApi(domain: string): object {
    const functions = new Map<string, unknown>()
    return new Proxy(
      {},
      {
        get(_target, action) {
          // Anything that is not an action name ('then' when awaited, symbols, __v_skip) is absent.
          if (typeof action !== 'string' || action === 'then' || action === 'toJSON') return undefined
          const subscriber = SUBSCRIBER.exec(action)
          if (!subscriber && !ACTION.test(action)) return undefined
          let made = functions.get(action)
          if (!made) {
            made = subscriber
              ? (listener: (payload: unknown) => void) =>
                  subscribe(`${domain}:${subscriber[1]?.toLowerCase()}${subscriber[2]}` as EventName, listener)
              : (input?: unknown) => invoke(`${domain}:${action}` as Channel, input)
            functions.set(action, made)
          }
          return made
        },
      },
    )
  }
  return new Proxy({} as WindowApi, {
    get(_target, domain) {
      if (typeof domain !== 'string' || domain === 'then' || !DOMAIN.test(domain)) return undefined
      let api = domains.get(domain)
      if (!api) {
        api = domainApi(domain)
        domains.set(domain, api)
      }
      return api
    },
  })
}
