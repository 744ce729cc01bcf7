/**
 * Which address is "our page": app://payout-desk/ (packaged and `npm start`, see app-scheme.ts)
 * or the dev server's origin under `npm run dev`. Compared by parsed scheme, host and port, never
 * by string prefix. file:// is never ours: the app is not served from it, and a file:// page has
 * no origin to compare.
 */
export function createAppUrlMatcher(appUrl: string): (url: string) => boolean {
  const expected = new URL(appUrl)
  if (expected.protocol === 'file:') throw new Error('The app is served from app://, never from file://.')
  return (candidate) => {
    let url: URL
    try {
      url = new URL(candidate)
    } catch {
      return false
    }
    // URL.origin is "null" for a custom scheme such as app:, so scheme and host (with port) are
    // compared; Node leaves the host of a non-special scheme as written, Chromium lower-cases it.
    return (
      url.protocol === expected.protocol &&
      url.host.toLowerCase() === expected.host.toLowerCase() &&
      url.username === '' &&
      url.password === ''
    )
  }
}
