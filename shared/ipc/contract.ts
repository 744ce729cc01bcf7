/**
 * The one IPC contract. Every channel the renderer may call is named here as `domain:action`,
 * with the schema its input must pass and the type of its result; every event main sends to the
 * renderer is named here too. Main (router), preload, renderer and tests all derive from this file.
 * Each domain declares its channels in `channels/<domain>.ts`; this file joins them into one table.
 */
import type { z } from 'zod'
import type { Result } from '../result'
import { coreChannels, coreEvents } from './channels/core'
import { lookupChannels, lookupEvents } from './channels/lookups'
import { payoutChannels, payoutEvents } from './channels/payouts'
import { historyChannels, historyEvents } from './channels/history'
import { journalChannels, journalEvents } from './channels/journal'
import { exportChannels, exportEvents } from './channels/exports'
import { bulkChannels, bulkEvents } from './channels/bulk'
import { cardChannels, cardEvents } from './channels/cards'
import { chargeChannels, chargeEvents } from './channels/charges'
import { desktopChannels, desktopEvents } from './channels/desktop'
import { documentChannels, documentEvents } from './channels/documents'
import { teamChannels, teamEvents } from './channels/team'
import { reconciliationChannels, reconciliationEvents } from './channels/reconciliation'
import { payeeChannels, payeeEvents } from './channels/payees'
import { limitChannels, limitEvents } from './channels/limits'

export const channels = {
  ...coreChannels,
  ...lookupChannels,
  ...payoutChannels,
  ...historyChannels,
  ...journalChannels,
  ...exportChannels,
  ...bulkChannels,
  ...cardChannels,
  ...chargeChannels,
  ...desktopChannels,
  ...documentChannels,
  ...teamChannels,
  ...reconciliationChannels,
  ...payeeChannels,
  ...limitChannels,
} as const

/** Events main sends to the renderer, with their payload types. */
export const events = {
  ...coreEvents,
  ...lookupEvents,
  ...payoutEvents,
  ...historyEvents,
  ...journalEvents,
  ...exportEvents,
  ...bulkEvents,
  ...cardEvents,
  ...chargeEvents,
  ...desktopEvents,
  ...documentEvents,
  ...teamEvents,
  ...reconciliationEvents,
  ...payeeEvents,
  ...limitEvents,
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

// Defined without the schemas, so the renderer can import them without zod (window-keys.ts).
export { BRIDGE_TOKEN_PARAM, WINDOW_API_KEY } from './window-keys'
