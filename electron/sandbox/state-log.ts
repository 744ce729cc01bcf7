/**
 * Keeps the simulator's state across restarts of the app: every request that changed state is
 * appended to a file (one JSON line), and on start the lines are replayed through the same routes,
 * at the same clock time and from the same position of the seeded generator, so the simulator
 * comes back exactly as it was. A process crash loses nothing the OS already has (no fsync: this
 * is a simulator, and a torn last line is ignored). Cardholder document images are not kept: a
 * placeholder replaces them (the app must never write an identity image anywhere). Charges are
 * replayed only when the encryption key is the same; the Sandbox profile makes new keys at every
 * start, so its charges do not survive a restart (docs/sandbox.md).
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs'
import { findRoute } from './routing'
import type { Route, SandboxContext } from './routing'
import type { StateChange } from './server'

const IMAGE_PLACEHOLDER = 'AAAA'
/** Requests that carry card data, PINs or OTPs: their bodies are never written. */
const WITHHELD_PATHS = ['/merchant/api/v1/charges', '/sandbox/3ds/']

type LoggedChange = StateChange & { withheld?: true }

export function replayStateLog(file: string, routes: readonly Route[], context: Omit<SandboxContext, 'now'>): number {
  if (!existsSync(file)) return 0
  let replayed = 0
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.trim() === '') continue
    let change: LoggedChange
    try {
      change = JSON.parse(line) as LoggedChange
    } catch {
      continue
    }
    if (change.withheld) {
      context.state.random.position = change.randomAfter
      continue
    }
    const match = findRoute(routes, change.method, change.path)
    if (match === null || 'methodNotAllowed' in match) continue
    context.state.random.position = change.randomBefore
    try {
      context.state.advance(change.at)
      const firstNewPayout = context.state.nextSequence
      match.route.handler(
        {
          method: change.method,
          path: change.path,
          params: match.params,
          query: new URLSearchParams(),
          body: change.body,
        },
        { ...context, now: change.at },
      )
      if (change.failPayouts) context.state.failPayoutsFrom(firstNewPayout, change.failPayouts)
      replayed += 1
    } catch {
      // A change that can no longer be replayed is left out; the generator stays aligned.
    }
    context.state.random.position = change.randomAfter
  }
  return replayed
}

export function appendStateChange(file: string, change: StateChange): void {
  appendFileSync(file, `${JSON.stringify(forDisk(change))}\n`, { mode: 0o600 })
}

function forDisk(change: StateChange): LoggedChange {
  if (WITHHELD_PATHS.some((prefix) => change.path.startsWith(prefix))) return { ...change, body: null, withheld: true }
  return withoutDocumentImage(change)
}

function withoutDocumentImage(change: StateChange): StateChange {
  const body = change.body as { identity?: { image?: unknown } } | null
  if (change.path !== '/api/v1/cardholders' || !body?.identity || typeof body.identity !== 'object') return change
  return { ...change, body: { ...body, identity: { ...body.identity, image: IMAGE_PLACEHOLDER } } }
}
