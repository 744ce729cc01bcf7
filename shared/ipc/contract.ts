/**
 * The one IPC contract. Every channel the renderer may call is named here as `domain:action`,
 * with the schema its input must pass and the type of its result; every event main sends to the
 * renderer is named here too. Main (router), preload, renderer and tests all derive from this file.
 */
import { z } from 'zod'
import type { Result } from '../result'
import type { AppInfo, AppSettings } from '../domain/settings'
import { THEME_PREFERENCES } from '../domain/settings'
import type { KeyState, ProfileList, ProfileView } from '../domain/profiles'
import { KEY_KINDS } from '../domain/profiles'
import type { AvailabilityEntry, Bank } from '../domain/lookups'
import { BANK_COUNTRIES } from '../domain/lookups'

/** Declares a result type without a runtime value: the contract carries types for main's answers. */
const returns = <T>(): T => undefined as T

const noInput = z.undefined()
const profileId = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9-]+$/, 'lower-case letters, digits and -')
const profileName = z.string().trim().min(1, 'a name is required').max(40)
const baseUrl = z
  .url({ protocol: /^https?$/, error: 'must be an http(s) URL', abort: true })
  .max(200)
  .refine(isHttpsOrLoopback, { message: 'must use https (http is allowed for 127.0.0.1 and localhost only)' })
/** Keys are pasted by people: trim them, but keep the check strict enough to catch a wrong paste. */
const keyValue = z
  .string()
  .trim()
  .min(8, 'is too short to be a key')
  .max(512)
  .regex(/^[\x21-\x7e]+$/, 'must be printable characters without spaces')

function isHttpsOrLoopback(value: string): boolean {
  try {
    const url = new URL(value)
    const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)
    return url.protocol === 'https:' || (url.protocol === 'http:' && loopback)
  } catch {
    return false
  }
}

export const channels = {
  'app:info': { input: noInput, result: returns<AppInfo>() },

  'settings:get': { input: noInput, result: returns<AppSettings>() },
  'settings:update': {
    input: z.strictObject({ theme: z.enum(THEME_PREFERENCES) }),
    result: returns<AppSettings>(),
  },

  'profiles:list': { input: noInput, result: returns<ProfileList>() },
  'profiles:create': {
    input: z.strictObject({ name: profileName, mode: z.enum(['test', 'live']), baseUrl }),
    result: returns<ProfileView>(),
  },
  'profiles:rename': {
    input: z.strictObject({ id: profileId, name: profileName }),
    result: returns<ProfileView>(),
  },
  'profiles:remove': { input: z.strictObject({ id: profileId }), result: returns<ProfileList>() },
  'profiles:activate': { input: z.strictObject({ id: profileId }), result: returns<ProfileList>() },
  /** Calls the service with the profile's key: proves the URL and the secret key work. */
  'profiles:checkConnection': {
    input: z.strictObject({ id: profileId }),
    result: returns<{ banksListed: number }>(),
  },

  'secrets:set': {
    input: z.strictObject({ profileId, kind: z.enum(KEY_KINDS), value: keyValue }),
    result: returns<KeyState>(),
  },
  'secrets:clear': {
    input: z.strictObject({ profileId, kind: z.enum(KEY_KINDS) }),
    result: returns<KeyState>(),
  },

  'lookups:banks': {
    input: z.strictObject({ countryCode: z.enum(BANK_COUNTRIES) }),
    result: returns<Bank[]>(),
  },
  'lookups:availability': {
    input: z.strictObject({ type: z.enum(['bank_account', 'mobile_money']), currency: z.literal('ZAR') }),
    result: returns<AvailabilityEntry[]>(),
  },
} as const

/** Events main sends to the renderer, with their payload types. */
export const events = {
  'profiles:changed': returns<ProfileList>(),
} as const

export type Channel = keyof typeof channels
export type EventName = keyof typeof events
export type ChannelInput<C extends Channel> = z.input<(typeof channels)[C]['input']>
export type ChannelParsedInput<C extends Channel> = z.output<(typeof channels)[C]['input']>
export type ChannelResult<C extends Channel> = (typeof channels)[C]['result']
export type EventPayload<E extends EventName> = (typeof events)[E]

export const channelNames = Object.keys(channels) as Channel[]
export const eventNames = Object.keys(events) as EventName[]

export function isChannel(name: string): name is Channel {
  return Object.prototype.hasOwnProperty.call(channels, name)
}

// ---- The window API derived from the contract: `api.profiles.list()`, `api.profiles.onChanged(fn)`.

type DomainOf<N extends string> = N extends `${infer D}:${string}` ? D : never
type ActionOf<N extends string> = N extends `${string}:${infer A}` ? A : never
type Invoker<C extends Channel> =
  undefined extends ChannelInput<C>
    ? (input?: ChannelInput<C>) => Promise<Result<ChannelResult<C>>>
    : (input: ChannelInput<C>) => Promise<Result<ChannelResult<C>>>
export type Unsubscribe = () => void
type Subscriber<E extends EventName> = (listener: (payload: EventPayload<E>) => void) => Unsubscribe

export type WindowApi = {
  [D in DomainOf<Channel | EventName>]: {
    [C in Channel as DomainOf<C> extends D ? ActionOf<C> : never]: Invoker<C>
  } & {
    [E in EventName as DomainOf<E> extends D ? `on${Capitalize<ActionOf<E>>}` : never]: Subscriber<E>
  }
}

/** Where a channel's function sits on the window API: 'profiles:list' -> ['profiles', 'list']. */
function apiPathOfChannel(name: Channel): [string, string] {
  const [domain = '', action = ''] = name.split(':')
  return [domain, action]
}

/** Where an event's subscriber sits: 'profiles:changed' -> ['profiles', 'onChanged']. */
function apiPathOfEvent(name: EventName): [string, string] {
  const [domain = '', action = ''] = name.split(':')
  return [domain, `on${action.charAt(0).toUpperCase()}${action.slice(1)}`]
}

/** Builds the window API from two transport functions; preload and the bridge client share it. */
export function buildWindowApi(
  invoke: (channel: Channel, input: unknown) => Promise<Result<unknown>>,
  subscribe: (event: EventName, listener: (payload: unknown) => void) => Unsubscribe,
): WindowApi {
  const api: Record<string, Record<string, unknown>> = {}
  for (const name of channelNames) {
    const [domain, action] = apiPathOfChannel(name)
    ;(api[domain] ??= {})[action] = (input?: unknown) => invoke(name, input)
  }
  for (const name of eventNames) {
    const [domain, action] = apiPathOfEvent(name)
    ;(api[domain] ??= {})[action] = (listener: (payload: unknown) => void) => subscribe(name, listener)
  }
  return api as WindowApi
}

/** The key under which the preload exposes the API on `window`. */
export const WINDOW_API_KEY = 'payoutDesk'

/** The query parameter that hands the loopback bridge's token to the renderer in a browser. */
export const BRIDGE_TOKEN_PARAM = 'bridgeToken'
