/**
 * What the browser does for main when the app runs over the loopback bridge (`npm run bridge`):
 * stream a file the person picked or dropped to the bridge (with progress), show the browser's
 * file picker when main asks for an Open, download what main saved, and use the browser's
 * clipboard. Only bridge-client.ts uses this; the installed app does all of it natively in main.
 */
import type { BridgeDownload, DroppedFile } from '../../../shared/ipc/files'
import {
  BRIDGE_FILE_NAME_HEADER,
  BRIDGE_FILES_CANCEL_PATH,
  BRIDGE_FILES_PATH,
  BRIDGE_PICK_HEADER,
  MAX_OPENED_FILE_BYTES,
} from '../../../shared/ipc/files'
import type { Result } from '../../../shared/result'
import { reportTransfer } from './transfers'

let transfers = 0

const refused = (message: string): Result<never> => ({ ok: false, error: { code: 'browser_refused', message } })

/**
 * Streams a file to the bridge (XMLHttpRequest: the one browser API that reports upload progress
 * and sends a File from disk without reading it into memory first).
 */
export function uploadFile(
  file: File,
  authorization: string,
  pick: string | null = null,
): Promise<Result<DroppedFile>> {
  if (file.size > MAX_OPENED_FILE_BYTES) {
    return Promise.resolve({
      ok: false,
      error: {
        code: 'bad_request',
        message: `${file.name} is larger than ${MAX_OPENED_FILE_BYTES / 1024 / 1024} MiB, more than any file this desk opens.`,
      },
    })
  }
  const id = `upload-${++transfers}`
  const report = (sent: number, done: boolean) => reportTransfer({ id, name: file.name, sent, total: file.size, done })
  return new Promise((resolve) => {
    const request = new XMLHttpRequest()
    request.open('POST', BRIDGE_FILES_PATH)
    request.setRequestHeader('authorization', authorization)
    request.setRequestHeader(BRIDGE_FILE_NAME_HEADER, encodeURIComponent(file.name))
    if (pick) request.setRequestHeader(BRIDGE_PICK_HEADER, pick)
    request.responseType = 'json'
    request.upload.onprogress = (event) => report(event.loaded, false)
    request.onload = () => {
      report(file.size, true)
      const body = request.response as Result<DroppedFile> | null
      resolve(
        body ?? {
          ok: false,
          error: {
            code: 'bad_response',
            message: `${file.name} could not be sent to the app (HTTP ${request.status}).`,
          },
        },
      )
    }
    request.onerror = () => {
      report(0, true)
      resolve({
        ok: false,
        error: { code: 'unreachable', message: `${file.name} could not be sent: the app did not answer.` },
      })
    }
    report(0, false)
    request.send(file)
  })
}

/**
 * The browser's file picker. Browsers open it only shortly after a click: when the person's click
 * on Open is too long ago, the answer is 'refused' and the caller says so.
 */
export function pickFile(accept: readonly string[]): Promise<File | null | 'refused'> {
  return new Promise((resolve) => {
    const input = document.createElement('input')
    input.type = 'file'
    input.accept = accept.join(',')
    input.addEventListener('change', () => resolve(input.files?.[0] ?? null), { once: true })
    input.addEventListener('cancel', () => resolve(null), { once: true })
    try {
      input.showPicker()
    } catch {
      resolve('refused')
    }
  })
}

export async function cancelPick(pick: string, authorization: string): Promise<void> {
  await fetch(BRIDGE_FILES_CANCEL_PATH, {
    method: 'POST',
    headers: { authorization, [BRIDGE_PICK_HEADER]: pick },
  }).catch(() => undefined)
}

/** Fetches a file main saved (with the token) and hands it to the browser's downloads. */
export async function downloadFile(download: BridgeDownload, authorization: string): Promise<boolean> {
  try {
    const response = await fetch(download.url, { headers: { authorization } })
    if (!response.ok) return false
    const blob = new Blob([await response.arrayBuffer()], { type: download.type })
    const url = URL.createObjectURL(blob)
    const link = document.createElement('a')
    link.href = url
    link.download = download.name
    link.rel = 'noopener'
    link.style.display = 'none'
    document.body.append(link)
    link.click()
    link.remove()
    // The download has started once click() returns; the object URL is kept a moment for it.
    setTimeout(() => URL.revokeObjectURL(url), 60_000)
    return true
  } catch {
    return false
  }
}

/** Text Payout Desk put on the browser's clipboard, to take off again when main asks. */
let copied: string | null = null

export async function writeClipboard(text: string): Promise<Result<null>> {
  try {
    await navigator.clipboard.writeText(text)
    copied = text
    return { ok: true, data: null }
  } catch {
    return refused(
      'Your browser did not let Payout Desk use the clipboard (it allows that only in the tab you are using, ' +
        'and may ask your permission): nothing was copied. Allow the clipboard for this address, or use the installed app.',
    )
  }
}

/** Clears the clipboard if it still holds what we copied; when the tab is not in front, once it is. */
export function clearClipboard(): void {
  const text = copied
  if (text === null) return
  const attempt = async (): Promise<void> => {
    if (!document.hasFocus()) {
      window.addEventListener('focus', () => void attempt(), { once: true })
      return
    }
    let current: string | null = null
    try {
      current = await navigator.clipboard.readText()
    } catch {
      // Reading needs a permission this page may not have: a card number is cleared regardless.
      current = text
    }
    if (current === text) await navigator.clipboard.writeText('').catch(() => undefined)
    if (copied === text) copied = null
  }
  void attempt()
}
