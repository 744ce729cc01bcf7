/** Route table types and path matching (":name" matches one path segment). */
import type { ServiceLoad } from './rate-limit'
import type { FaultBook } from './faults'
import type { Reply } from './replies'
import type { SandboxState } from './state'

export interface RouteRequest {
  method: string
  path: string
  params: Record<string, string>
  query: URLSearchParams
  /** Parsed JSON body (POST routes), or the form fields for form routes. */
  body: unknown
}

/** Everything a handler may use; `now` is read once per request from the injected clock. */
export interface SandboxContext {
  state: SandboxState
  faults: FaultBook
  /** The rate limit and load latency, changed by /__sandbox/rate-limit (absent while replaying). */
  load?: ServiceLoad
  now: number
  settleMs: number
  baseUrl: string
  encryptionKey: Buffer
}

export interface Route {
  method: 'GET' | 'POST' | 'DELETE'
  pattern: string
  handler: (request: RouteRequest, context: SandboxContext) => Reply
  /** Served without the bearer key (the 3DS page a customer's browser opens). */
  public?: boolean
  /** How the body is read: JSON (default for POST) or an HTML form. */
  bodyKind?: 'json' | 'form'
}

export function matchPath(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/')
  const got = path.split('/')
  if (want.length !== got.length) return null
  const params: Record<string, string> = {}
  for (let i = 0; i < want.length; i++) {
    const w = want[i] ?? ''
    const g = got[i] ?? ''
    if (w.startsWith(':')) {
      if (g === '') return null
      try {
        params[w.slice(1)] = decodeURIComponent(g)
      } catch {
        return null
      }
    } else if (w !== g) return null
  }
  return params
}

export type RouteMatch = { route: Route; params: Record<string, string> } | { methodNotAllowed: true } | null

export function findRoute(routes: readonly Route[], method: string, path: string): RouteMatch {
  let pathKnown = false
  for (const route of routes) {
    const params = matchPath(route.pattern, path)
    if (!params) continue
    if (route.method === method) return { route, params }
    pathKnown = true
  }
  return pathKnown ? { methodNotAllowed: true } : null
}
