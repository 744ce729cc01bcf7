/** What every IPC call returns: data, or an expected failure with a stable code. */
export type ErrorCode =
  | 'bad_request' // the payload failed its schema
  | 'unknown_channel'
  | 'forbidden_sender'
  | 'not_found'
  | 'conflict'
  | 'keychain_unavailable'
  | 'keys_missing'
  | 'unauthorized' // the payments service refused our key
  | 'rejected' // the payments service refused the request (4xx with a message)
  | 'unreachable' // nothing came back: no connection, timeout, dropped
  | 'outcome_unknown' // something may have happened remotely; verify before any retry
  | 'rate_limited'
  | 'bad_response' // the payments service answered something we cannot read
  | 'browser_refused' // in a browser (the bridge): the browser did not allow it (clipboard, file picker)
  | 'internal'
  // Team mode (decision 38):
  | 'team_offline' // no live connection to the team database: nothing is claimed or recorded
  | 'forbidden' // the team database refused: a role the member lacks, or their own run to approve
  | 'claim_held' // another desk holds the claim and its lease has not run out
  | 'hash_mismatch' // the content is not the version that was approved (or the desk's hash differs)

export interface AppError {
  code: ErrorCode
  message: string
  details?: unknown
}

export type Result<T> = { ok: true; data: T } | { ok: false; error: AppError }

export const ok = <T>(data: T): Result<T> => ({ ok: true, data })
export const fail = (code: ErrorCode, message: string, details?: unknown): Result<never> => ({
  ok: false,
  error: details === undefined ? { code, message } : { code, message, details },
})

/** An expected failure thrown inside a service and turned into a failed Result by the router. */
export class AppFailure extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message)
    this.name = 'AppFailure'
  }
}
