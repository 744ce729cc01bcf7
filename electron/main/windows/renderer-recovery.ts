/**
 * What to do when the window's renderer crashes or hangs. Main keeps every piece of state (journal,
 * running bulk work, profiles), so a reload loses nothing: the renderer asks main for current state
 * on mount. A renderer that keeps crashing is not reloaded forever: after a few crashes in a short
 * time the window is left as it is and the log says why. Pure; index.ts applies the answer.
 */

export type RendererProblem =
  { kind: 'gone'; reason: string; exitCode: number } | { kind: 'unresponsive' } | { kind: 'responsive' }

export interface RecoveryDecision {
  action: 'reload' | 'none'
  level: 'error' | 'warn' | 'info'
  message: string
}

/** More crashes than this within CRASH_WINDOW_MS and we stop reloading. */
export const MAX_RELOADS = 3
export const CRASH_WINDOW_MS = 60_000

/**
 * Decides, given the problem and the times of the earlier reloads (ms), what to do. `recentReloads`
 * is kept by the caller: append `now` when the decision is 'reload'.
 */
export function decideRecovery(
  problem: RendererProblem,
  recentReloads: readonly number[],
  now: number,
): RecoveryDecision {
  if (problem.kind === 'responsive') {
    return { action: 'none', level: 'info', message: 'The window is responding again' }
  }
  if (problem.kind === 'gone' && problem.reason === 'clean-exit') {
    return { action: 'none', level: 'info', message: 'The window content closed normally' }
  }
  const what =
    problem.kind === 'gone'
      ? `The window content stopped (reason: ${problem.reason}, exit code ${problem.exitCode})`
      : 'The window stopped responding'
  const recent = recentReloads.filter((time) => now - time < CRASH_WINDOW_MS)
  if (recent.length >= MAX_RELOADS) {
    return {
      action: 'none',
      level: 'error',
      message: `${what}; not reloading: it was reloaded ${recent.length} times in the last minute. Nothing held by the app was lost; restart the app.`,
    }
  }
  return { action: 'reload', level: 'error', message: `${what}; reloading it. Nothing held by the app was lost.` }
}
