/**
 * The bridge transport seen from the renderer: the same window API, carried over the loopback
 * bridge (fetch for calls, a streamed response for events), plus what the browser does for main
 * (browser-surface.ts): an answer's effects (downloads, a clipboard write) are carried out before
 * the caller gets the answer, and main's requests for an Open show the browser's file picker.
 * Used only when no preload is present: the built renderer opened in a browser by `npm run bridge`
 * or the Playwright suite.
 */
import type { EventName, WindowApi } from '../../../shared/ipc/contract'
import type { BridgeEffects, DroppedFile } from '../../../shared/ipc/files'
// Not from the contract: that would bring zod into the renderer (see window-api.ts).
import { BRIDGE_TOKEN_PARAM, buildWindowApiByName } from '../../../shared/ipc/window-api'
import type { Result } from '../../../shared/result'
import { cancelPick, clearClipboard, downloadFile, pickFile, uploadFile, writeClipboard } from './browser-surface'

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

export interface BridgeTransport {
  api: WindowApi
  /** Streams a dropped file to the bridge; main reads it by the reference this returns. */
  stageDroppedFile(file: File): Promise<Result<DroppedFile>>
}

export function createBridgeTransport(): BridgeTransport | null {
  const token = takeBridgeToken()
  if (!token) return null
  const authorization = `Bearer ${token}`
  const headers = { authorization, 'content-type': 'application/json' }
  const listeners = new Map<EventName, Set<(payload: unknown) => void>>()
  let streaming = false

  function deliver(event: EventName, payload: unknown): void {
    for (const listener of listeners.get(event) ?? []) listener(payload)
  }
  /** A notice from this page itself, shown like main's. */
  const notice = (kind: 'warning' | 'error', message: string) => deliver('app:notice', { kind, message })

  /** Downloads, then the clipboard: a refused copy turns the answer into a failure that says so. */
  async function carryOut(effects: BridgeEffects, result: Result<unknown>): Promise<Result<unknown>> {
    for (const download of effects.downloads ?? []) {
      if (!(await downloadFile(download, authorization))) {
        notice('error', `${download.name} was saved by the app but the browser could not download it; save it again.`)
      }
    }
    if (effects.clipboard !== undefined) {
      const copied = await writeClipboard(effects.clipboard)
      if (!copied.ok) return copied
    }
    return result
  }

  async function invoke(channel: string, input: unknown): Promise<Result<unknown>> {
    try {
      const response = await fetch(`/ipc/${encodeURIComponent(channel)}`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ payload: input }),
      })
      const { effects, ...result } = (await response.json()) as Result<unknown> & { effects?: BridgeEffects }
      return effects ? await carryOut(effects, result as Result<unknown>) : (result as Result<unknown>)
    } catch (error) {
      return {
        ok: false,
        error: { code: 'unreachable', message: `The app's main process did not answer (${String(error)}).` },
      }
    }
  }

  /** Main asked for an Open: the browser's picker, then the file streamed in under the pick's id. */
  async function choose(request: { pick: string; accept: string[] }): Promise<void> {
    const file = await pickFile(request.accept)
    if (file === 'refused' || file === null) {
      if (file === 'refused') {
        notice('warning', 'The browser opens its file picker only right after a click: click Open again.')
      }
      await cancelPick(request.pick, authorization)
      return
    }
    const sent = await uploadFile(file, authorization, request.pick)
    if (!sent.ok) {
      notice('error', sent.error.message)
      await cancelPick(request.pick, authorization)
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
          deliver(event, payload)
        }
      }
    } finally {
      streaming = false
    }
  }

  function subscribe(event: EventName, listener: (payload: unknown) => void): () => void {
    const set = listeners.get(event) ?? new Set()
    set.add(listener)
    listeners.set(event, set)
    if (!streaming) void streamEvents()
    return () => {
      set.delete(listener)
    }
  }

  // Main's requests to the browser itself, heard for as long as the page lives.
  subscribe('desktop:chooseFile', (payload) => void choose(payload as { pick: string; accept: string[] }))
  subscribe('desktop:clipboardClear', () => clearClipboard())

  return {
    api: buildWindowApiByName(invoke, subscribe),
    stageDroppedFile: (file) => uploadFile(file, authorization),
  }
}
