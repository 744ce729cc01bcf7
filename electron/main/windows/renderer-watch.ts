/**
 * Applies renderer-recovery.ts to a window: a renderer that crashes is logged with its reason and
 * reloaded; one that hangs is given a grace period, then logged and reloaded. Main's state is
 * untouched: the page asks main for current state when it loads again.
 */
import type { BrowserWindow } from 'electron'
import { decideRecovery } from './renderer-recovery'
import type { RendererProblem } from './renderer-recovery'

/** Long enough for a slow machine to finish a heavy render, short enough not to look frozen forever. */
export const UNRESPONSIVE_GRACE_MS = 10_000

export function watchRenderer(
  window: BrowserWindow,
  log: { error(message: string): void; warn(message: string): void; info(message: string): void },
): void {
  const reloads: number[] = []
  let hangTimer: NodeJS.Timeout | undefined

  function handle(problem: RendererProblem): void {
    const decision = decideRecovery(problem, reloads, Date.now())
    log[decision.level](decision.message)
    if (decision.action !== 'reload' || window.isDestroyed()) return
    reloads.push(Date.now())
    if (problem.kind === 'unresponsive') window.webContents.forcefullyCrashRenderer()
    window.webContents.reload()
  }

  window.webContents.on('render-process-gone', (_event, details) => {
    clearTimeout(hangTimer)
    handle({ kind: 'gone', reason: details.reason, exitCode: details.exitCode })
  })
  window.on('unresponsive', () => {
    log.warn(`The window stopped responding; waiting ${UNRESPONSIVE_GRACE_MS / 1000} s before reloading it`)
    clearTimeout(hangTimer)
    hangTimer = setTimeout(() => handle({ kind: 'unresponsive' }), UNRESPONSIVE_GRACE_MS)
  })
  window.on('responsive', () => {
    if (hangTimer === undefined) return
    clearTimeout(hangTimer)
    hangTimer = undefined
    handle({ kind: 'responsive' })
  })
  window.on('closed', () => clearTimeout(hangTimer))
}
