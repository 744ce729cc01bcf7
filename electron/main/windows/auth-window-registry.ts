/**
 * The web contents of open 3-D Secure windows. The app-wide guards (guards.ts) block every
 * navigation away from the app; a bank's 3-D Secure page must navigate (its form posts, its
 * redirects), and its own window watches and limits that, so the guards leave these alone.
 */
const authContents = new Set<number>()

export function registerAuthWindowContents(id: number): void {
  authContents.add(id)
}

export function forgetAuthWindowContents(id: number): void {
  authContents.delete(id)
}

export function isAuthWindowContents(id: number): boolean {
  return authContents.has(id)
}
