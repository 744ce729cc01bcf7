/** Channels of the app itself: information, settings, profiles and their keys, lookups. */
import { z } from 'zod'
import type { AppInfo, AppSettings } from '../../domain/settings'
import { THEME_PREFERENCES } from '../../domain/settings'
import type { KeyState, ProfileList, ProfileView } from '../../domain/profiles'
import { KEY_KINDS, PACE_CEILING_MAX } from '../../domain/profiles'
import type { AppNotice, DesktopNotification } from '../../domain/notices'
import { noInput, returns } from '../define'

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

export const coreChannels = {
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
  /** The payer name of a profile (empty clears it): who pays, on payment advices and run summaries. */
  'profiles:setPayerName': {
    input: z.strictObject({ id: profileId, payerName: z.string().trim().max(120) }),
    result: returns<ProfileView>(),
  },
  /** At most this many requests at once to the profile's service (decision 144): can only lower the built-in 32. */
  'profiles:setPaceCeiling': {
    input: z.strictObject({ id: profileId, ceiling: z.number().int().min(1).max(PACE_CEILING_MAX) }),
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
} as const

export const coreEvents = {
  'profiles:changed': returns<ProfileList>(),
  /** Something the user should know now (a rate limit being waited out, a completed payout). */
  'app:notice': returns<AppNotice>(),
  /** A desktop notification, as the bridge transport shows it (Electron shows it natively too). */
  'app:notification': returns<DesktopNotification>(),
} as const
