/**
 * Which address is "our page": the built renderer's index.html, or the dev server in development.
 * Compared by parsed origin and path, never by string prefix.
 */
export function createAppUrlMatcher(appUrl: string): (url: string) => boolean {
  const expected = new URL(appUrl)
  return (candidate) => {
    let url: URL
    try {
      url = new URL(candidate)
    } catch {
      return false
    }
    if (expected.protocol === 'file:') return url.protocol === 'file:' && url.pathname === expected.pathname
    return url.origin === expected.origin
  }
}
