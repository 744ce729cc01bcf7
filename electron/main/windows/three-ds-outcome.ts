/**
 * The logic of a 3-D Secure window, apart from Electron so it can be tested: it settles once, on
 * the first of: a navigation reaching the return URL ("returned"), the window closed by hand
 * ("closed"), the time limit ("timed_out"), or the page failing to open ("failed_to_open").
 * three-ds-window.ts (Electron) and the bridge's popup stand-in both drive it.
 */
import { matchesReturnUrl } from './return-url'
import type { ProfileMode } from '../../../shared/domain/profiles'
import { isAuthPageUrl } from '../../../shared/rules/auth-page'

export type ThreeDsOutcome = 'returned' | 'closed' | 'timed_out' | 'failed_to_open'

export const THREE_DS_TIMEOUT_MS = 10 * 60 * 1000

export interface ThreeDsWatch {
  /** Reports a navigation; true when it reached the return URL (stop it and close the window). */
  navigated(url: string): boolean
  /** May the window go to this URL at all? See isAuthPageUrl. */
  mayNavigate(url: string): boolean
  closed(): void
  failedToOpen(): void
  readonly settled: boolean
  readonly outcome: Promise<ThreeDsOutcome>
}

export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
}

const realTimers: Timers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
}

export { isAuthPageUrl }

export function watchThreeDs(options: {
  returnUrl: string
  /** The charge's profile mode: which pages the window may go to (shared/rules/auth-page.ts). */
  mode: ProfileMode
  timeoutMs?: number
  timers?: Timers
}): ThreeDsWatch {
  const timers = options.timers ?? realTimers
  let settled = false
  let resolve!: (outcome: ThreeDsOutcome) => void
  const outcome = new Promise<ThreeDsOutcome>((done) => (resolve = done))
  const timer = timers.setTimeout(() => settle('timed_out'), options.timeoutMs ?? THREE_DS_TIMEOUT_MS)

  function settle(result: ThreeDsOutcome): void {
    if (settled) return
    settled = true
    timers.clearTimeout(timer)
    resolve(result)
  }

  return {
    navigated(url) {
      if (settled) return false
      if (!matchesReturnUrl(url, options.returnUrl)) return false
      settle('returned')
      return true
    },
    mayNavigate: (url) => isAuthPageUrl(url, options.mode),
    closed: () => settle('closed'),
    failedToOpen: () => settle('failed_to_open'),
    get settled() {
      return settled
    },
    outcome,
  }
}
