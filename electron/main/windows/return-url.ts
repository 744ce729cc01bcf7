/**
 * Does a URL the 3-D Secure window is going to (or reached) match the charge's return URL? By the
 * parsed origin (scheme, host, port) and the exact normalised path, never by string prefix: the
 * query and fragment may differ (the service appends ?reference=), nothing else may. A URL with
 * user:password@ is never ours, and neither is anything that is not http(s).
 */
export function matchesReturnUrl(candidate: string, returnUrl: string): boolean {
  const seen = parseWebUrl(candidate)
  const expected = parseWebUrl(returnUrl)
  if (!seen || !expected) return false
  if (seen.username !== '' || seen.password !== '') return false
  return seen.origin === expected.origin && seen.pathname === expected.pathname
}

function parseWebUrl(text: string): URL | null {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return null
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null
  return url
}

/** The return URL the app supplies when the user gave none: `.invalid` never resolves (RFC 2606). */
export function appReturnUrl(reference: string): string {
  return `https://payout-desk.invalid/3ds-return/${encodeURIComponent(reference)}`
}
