/**
 * What to do about a failed action, in plain words, for each stable error code (shared/result.ts).
 * The message of an error says what was wrong; the hint says what to do next. No screen shows a
 * code as if it were the message ("Error code: bad_request"); the code stays available to support
 * as a data attribute.
 */
import type { ErrorCode } from '../result'

export const ERROR_HINTS: Readonly<Record<ErrorCode, string>> = {
  bad_request: 'Correct what the message names, then try again.',
  unknown_channel:
    'The app asked itself for something it does not have: restart it, and report this if it happens again.',
  forbidden_sender: 'A page that is not the app tried to act: restart the app.',
  not_found: 'It may have been removed or never made here: refresh the list and choose it again.',
  conflict: 'Wait for what is already under way to finish, or refresh, then try again.',
  keychain_unavailable:
    'The system keychain cannot be reached: unlock it or install what the message names, then reopen Settings. The Sandbox profile works meanwhile.',
  keys_missing: "Add the profile's keys in Settings, then try again.",
  unauthorized: "The payments service refused the profile's secret key: check it in Settings.",
  rejected: 'The payments service refused the request: correct what its message names, then try again.',
  unreachable:
    "Nothing was sent or nothing came back: check the internet connection and the profile's base URL, then try again.",
  outcome_unknown:
    'It may have gone through: the desk verifies it by its reference. Do not start it again until the verification has answered.',
  rate_limited: 'The payments service asked the desk to slow down: wait a moment, then try again.',
  bad_response:
    'The payments service answered something the desk cannot read: try again later, and tell support if it lasts.',
  browser_refused:
    'The browser did not allow it: allow the page to use the clipboard or open files (or use the installed app), then try again.',
  team_offline:
    "The team's database cannot be reached: nothing was claimed or recorded. The desk reconnects by itself; check the connection in Settings, Team.",
  forbidden:
    'The team database does not allow this for your role (or it is your own run to approve): ask a member who may.',
  claim_held:
    'Another desk is working on this now: wait for it to finish, or for its lease to run out, then open the run again.',
  hash_mismatch:
    'The run changed since it was approved: review it again, and ask for a new approval of the version you see.',
  internal: 'Something went wrong inside the app: try again, and if it happens again send the diagnostics from Help.',
}

/**
 * The hints that send the person to Settings, as they read on Settings itself: "check it in
 * Settings" is no help to someone looking at it.
 */
export const ERROR_HINTS_ON_SETTINGS: Readonly<Partial<Record<ErrorCode, string>>> = {
  keychain_unavailable:
    'The system keychain cannot be reached: unlock it or install what the message names, then come back to this screen. The Sandbox profile works meanwhile.',
  keys_missing:
    "Paste the profile's keys into its Secret key and Encryption key fields on this screen, then try again.",
  unauthorized:
    "The payments service refused the profile's secret key: paste the right one into its Secret key field on this screen, then try again.",
  team_offline:
    "The team's database cannot be reached: nothing was claimed or recorded. The desk reconnects by itself; check the connection under Team on this screen.",
}

/** What to do about an error with this code; `onScreen` names the screen the person is on. */
export function errorHint(code: string, onScreen?: string): string {
  const here =
    onScreen === 'settings' ? (ERROR_HINTS_ON_SETTINGS as Record<string, string | undefined>)[code] : undefined
  return here ?? (ERROR_HINTS as Record<string, string | undefined>)[code] ?? ERROR_HINTS.internal
}
