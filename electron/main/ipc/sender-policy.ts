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

/** Trusts the main frame of the given window while it shows a page from `isAppUrl`. */
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
