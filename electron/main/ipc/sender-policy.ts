/**
 * Who may call the router, per transport. Kept free of Electron so the policies themselves are
 * unit-tested, not a copy of them.
 */
import type { SenderPolicy } from './router'

/** What the Electron policy needs to know of the main window. */
export interface TrustedWindow {
  webContentsId: number
  isDestroyed(): boolean
}

/** Trusts the main frame of the given window while it shows a page from `isAppUrl` (app://, see windows/app-url.ts). */
export function mainWindowSenderPolicy(
  getWindow: () => TrustedWindow | null,
  isAppUrl: (url: string) => boolean,
): SenderPolicy {
  return (sender) => {
    if (sender.transport !== 'electron') return 'not an Electron sender'
    const window = getWindow()
    if (!window || window.isDestroyed() || window.webContentsId !== sender.webContentsId) {
      return 'not the Payout Desk window'
    }
    if (!sender.isMainFrame) return 'not the main frame'
    if (!isAppUrl(sender.frameUrl)) return 'not the Payout Desk page'
    return null
  }
}

/** The bridge has already checked its token, Host and Origin; here only bridge senders pass. */
export const bridgeSenderPolicy: SenderPolicy = (sender) =>
  sender.transport === 'bridge' ? null : 'not a bridge sender'

/**
 * The same policy, with every refusal written to the log (who was refused and why; never the
 * payload). A refused call is a bug or an attack: either way someone should be able to see it.
 */
export function loggingRefusals(policy: SenderPolicy, log: { warn(message: string): void }): SenderPolicy {
  return (sender) => {
    const refusal = policy(sender)
    if (refusal) log.warn(`IPC request refused (${refusal}) from ${describeSender(sender)}`)
    return refusal
  }
}

function describeSender(sender: Parameters<SenderPolicy>[0]): string {
  if (sender.transport === 'bridge') return `the bridge, origin ${sender.origin ?? 'none'}`
  let where = 'an unreadable address'
  try {
    const url = new URL(sender.frameUrl)
    // Scheme and host only: a query string may carry something that must not be written.
    where = url.host ? `${url.protocol}//${url.host}` : `a ${url.protocol} page`
  } catch {
    // keep the default
  }
  return `web contents ${sender.webContentsId}, ${sender.isMainFrame ? 'main frame' : 'a subframe'} on ${where}`
}
