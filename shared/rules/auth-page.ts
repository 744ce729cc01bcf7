/**
 * Which pages a 3-D Secure window (or, over the bridge, the browser's popup) may show: one rule for
 * main's window, its navigations, and the renderer's popup, which checks it again before it opens.
 *
 * - https, always;
 * - plain http only on this machine's loopback address, and only for the Sandbox and test profiles
 *   (the embedded Sandbox's own page). A Live profile's 3-D Secure page is the card issuer's, never
 *   plain http, never on this machine;
 * - never file:, data:, javascript: or the like, and never a URL with user:password@.
 */
import type { ProfileMode } from '../domain/profiles'

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]'])

export function isAuthPageUrl(url: string, mode: ProfileMode): boolean {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return false
  }
  if (parsed.username !== '' || parsed.password !== '') return false
  if (parsed.protocol === 'https:') return true
  return mode !== 'live' && parsed.protocol === 'http:' && LOOPBACK_HOSTS.has(parsed.hostname)
}
