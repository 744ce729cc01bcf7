/** The answers a route can give, and the JSON envelope every answer uses. */

export interface Reply {
  status: number
  headers?: Record<string, string>
  /** JSON body (serialised by the server). */
  json?: unknown
  /** Raw text body (HTML pages, the not-json fault); needs a content-type header. */
  text?: string
}

export const INVALID_REQUEST_DATA = 'Invalid request data'

/** Field-level problems answer HTTP 400 (documented choice; the spec gives no status codes). */
export const INVALID_DATA_STATUS = 400

export function success(message: string, data: unknown, status = 200): Reply {
  return { status, json: { status: true, message, data } }
}

export function failure(status: number, message: string, data: Record<string, unknown> = {}): Reply {
  return { status, json: { status: false, message, data } }
}

/** Thrown by routes and validators to stop at the first rejection and answer with it. */
export class SandboxRejection extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly data: Record<string, unknown> = {},
  ) {
    super(message)
    this.name = 'SandboxRejection'
  }

  toReply(): Reply {
    return failure(this.status, this.message, this.data)
  }
}

export const invalidData = (details: Record<string, string>): SandboxRejection =>
  new SandboxRejection(INVALID_DATA_STATUS, INVALID_REQUEST_DATA, details)

export const notFound = (message: string): SandboxRejection => new SandboxRejection(404, message)
export const conflict = (message: string): SandboxRejection => new SandboxRejection(409, message)
export const rejected = (message: string): SandboxRejection => new SandboxRejection(400, message)
