/**
 * Links to the outside world: opened in the system browser, never inside the app, and only https
 * links to the hosts listed here. Everything else is refused (and logged by the caller).
 */

/** Where the app may send people: its own help and the payments service's public documentation. */
export const EXTERNAL_LINK_HOSTS: readonly string[] = ['payoutdesk.example', 'docs.payoutdesk.example']

/** True when `url` may be opened in the system browser: https, no credentials, a listed host. */
export function isAllowedExternalUrl(url: string, allowedHosts: readonly string[] = EXTERNAL_LINK_HOSTS): boolean {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return false
  }
  if (parsed.protocol !== 'https:') return false
  if (parsed.username || parsed.password) return false
  if (parsed.port && parsed.port !== '443') return false
  return allowedHosts.includes(parsed.hostname.toLowerCase())
}
