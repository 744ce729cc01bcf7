/**
 * Bridge only (`npm run bridge`, the app in a browser): the 3-D Secure page opens in a popup, where
 * the installed app opens its own window from main. The page's return URL is on the app's own
 * origin, so once the bank sends the customer back, the popup's location becomes readable; it is
 * reported to main (which matches it), and so is the popup being closed by hand. Kept beside the
 * browser surface: nothing outside the bridge needs it.
 */
import type { ProfileMode } from '../../../shared/domain/profiles'
import type { WindowApi } from '../../../shared/ipc/contract'
import { isAuthPageUrl } from '../../../shared/rules/auth-page'

type Reporter = WindowApi['charges']['authPopupReport']

/** How often the popup's location is looked at. */
const WATCH_MS = 250

/**
 * Opens `url` in a popup named after the charge and reports where it goes until main says the
 * authorization ended or the popup is closed. 'blocked' when the browser blocked the popup (it opens
 * popups only right after a click): the screen then offers a button to open it. 'refused' when the
 * page is not one a 3-D Secure window may show for the charge's mode (the rule main's window keeps,
 * shared/rules/auth-page.ts): nothing opens, and main hears the window closed.
 */
export function openThreeDsPopup(
  reference: string,
  url: string,
  mode: ProfileMode,
  report: Reporter,
): 'opened' | 'blocked' | 'refused' {
  if (!isAuthPageUrl(url, mode)) {
    void Promise.resolve(report({ reference, location: null })).catch(() => undefined)
    return 'refused'
  }
  const popup = window.open(url, `three-ds-${reference}`, 'popup,width=520,height=700')
  if (!popup) return 'blocked'
  const send = async (location: string | null): Promise<boolean | null> => {
    try {
      const result = await report({ reference, location })
      return result.ok ? result.data.ended : null
    } catch {
      return null
    }
  }
  let lastReported = ''
  const timer = window.setInterval(() => {
    if (popup.closed) {
      window.clearInterval(timer)
      void send(null)
      return
    }
    let location = ''
    try {
      location = popup.location.href
    } catch {
      return // still on the bank's page (another origin): nothing to read
    }
    if (!location || location === 'about:blank' || location === lastReported) return
    lastReported = location
    void send(location).then((ended) => {
      if (ended) {
        window.clearInterval(timer)
        popup.close()
      } else if (ended === null) {
        lastReported = '' // main did not hear it: report the same address again on the next tick
      }
    })
  }, WATCH_MS)
  return 'opened'
}
