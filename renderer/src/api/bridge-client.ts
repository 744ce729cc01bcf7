/**
 * The test transport seen from the renderer: the same window API, carried over the loopback bridge
 * (fetch for calls, a streamed response for events). Used only when no preload is present, that is
 * when the built renderer is opened in a browser by the Playwright suite or `npm run bridge`.
 */
import type { EventName, WindowApi } from '../../../shared/ipc/contract'
// Not from the contract: that would bring zod into the renderer (see window-api.ts).
import { BRIDGE_TOKEN_PARAM, buildWindowApiByName } from '../../../shared/ipc/window-api'
import type { Result } from '../../../shared/result'

const TOKEN_STORAGE_KEY = 'payout-desk.bridge-token'

/** Takes the token from the address once, keeps it for this tab only, and removes it from the URL. */
function takeBridgeToken(): string | null {
  const url = new URL(window.location.href)
  const fromUrl = url.searchParams.get(BRIDGE_TOKEN_PARAM)
  if (fromUrl) {
    window.sessionStorage.setItem(TOKEN_STORAGE_KEY, fromUrl)
    url.searchParams.delete(BRIDGE_TOKEN_PARAM)
    window.history.replaceState(window.history.state, '', url.toString())
    return fromUrl
  }
  return window.sessionStorage.getItem(TOKEN_STORAGE_KEY)
}

export function createBridgeApi(): WindowApi | null {
  const token = takeBridgeToken()
  if (!token) return null
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
  const listeners = new Map<EventName, Set<(payload: unknown) => void>>()
  let streaming = false

  async function invoke(channel: string, input: unknown): Promise<Result<unknown>> {
    try {
      const response = await fetch(`/ipc/${encodeURIComponent(channel)}`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ payload: input }),
      })
      return (await response.json()) as Result<unknown>
    } catch (error) {
      return {
        ok: false,
        error: { code: 'unreachable', message: `The app's main process did not answer (${String(error)}).` },
      }
    }
  }

  async function streamEvents(): Promise<void> {
    streaming = true
    try {
      const response = await fetch('/events', { headers })
      const reader = response.body?.getReader()
      if (!reader) return
      const decoder = new TextDecoder()
      let buffer = ''
      for (;;) {
        const { value, done } = await reader.read()
        if (done) break
        buffer += decoder.decode(value, { stream: true })
        let end: number
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, end)
          buffer = buffer.slice(end + 2)
          const data = frame.split('\n').find((line) => line.startsWith('data: '))
          if (!data) continue
          const { event, payload } = JSON.parse(data.slice(6)) as { event: EventName; payload: unknown }
          for (const listener of listeners.get(event) ?? []) listener(payload)
        }
      }
    } finally {
      streaming = false
    }
  }

  return buildWindowApiByName(invoke, (event, listener) => {
    const set = listeners.get(event) ?? new Set()
    set.add(listener)
    listeners.set(event, set)
    if (!streaming) void streamEvents()
    return () => {
      set.delete(listener)
    }
  })
}
