/**
 * Puts a secret text (a copied card number) on the system clipboard together with the platform's
 * "do not keep in history" markers, in one write (decision 114). Electron writes a custom clipboard
 * format only through `clipboard.writeBuffer`, which replaces what is there, so the text and its
 * markers cannot go together through Electron's API (decision 91); instead, a small helper the
 * platform ships writes both:
 *
 * - Windows: Windows PowerShell (STA) builds a WinForms DataObject with the text and the three
 *   registered formats Microsoft documents for Clipboard History and Cloud Clipboard:
 *   `ExcludeClipboardContentFromMonitorProcessing` (any data), `CanIncludeInClipboardHistory` and
 *   `CanUploadToCloudClipboard` (a serialized DWORD 0 each), and hands it over with
 *   `Clipboard.SetDataObject(data, true)` so it stays after the helper exits.
 * - macOS: `osascript -l JavaScript` (the ObjC bridge) puts one pasteboard item with
 *   `public.utf8-plain-text` and `org.nspasteboard.ConcealedType` (nspasteboard.org) on the general
 *   pasteboard, after preparing it for the current host only (no Universal Clipboard).
 * - Linux and anything else: no cross-desktop marker can be written with the text (KDE's
 *   `x-kde-passwordManagerHint` is a second format): the plain text write.
 *
 * The text goes to the helper on stdin only: never in its arguments or environment (process
 * listings show those), never in a log line or an error text. A helper that is missing, fails or
 * takes too long falls back to the plain text write, and the log says (without the text) that the
 * markers were not set.
 */
import { spawn } from 'node:child_process'
import { win32 } from 'node:path'
import type { ConcealedWrite } from './desktop'

/** Runs a program with `stdin` written to it and closed; answers how it ended. Injected in tests. */
export type ProcessRunner = (
  program: string,
  args: readonly string[],
  options: { stdin: string; timeoutMs: number },
) => Promise<{ code: number | null; timedOut: boolean }>

export interface ClipboardHelper {
  program: string
  args: string[]
}

/** Registered Windows clipboard formats that keep an item out of Clipboard History and Cloud Clipboard. */
export const WINDOWS_PRIVACY_FORMATS = [
  'ExcludeClipboardContentFromMonitorProcessing',
  'CanIncludeInClipboardHistory',
  'CanUploadToCloudClipboard',
] as const

/** nspasteboard.org's marker for confidential content (history tools hide it and keep it off disk). */
export const MACOS_CONCEALED_TYPE = 'org.nspasteboard.ConcealedType'

/**
 * A cold Windows PowerShell takes one to three seconds to start; past this the copy goes the
 * plain way rather than keep the person waiting.
 */
export const HELPER_TIMEOUT_MS = 8_000

// Reads the text from stdin as UTF-8, so nothing of it is in the command line.
const WINDOWS_SCRIPT = `
$ErrorActionPreference = 'Stop'
Add-Type -AssemblyName System.Windows.Forms
$stdin = New-Object System.IO.StreamReader([Console]::OpenStandardInput(), (New-Object System.Text.UTF8Encoding($false)))
$text = $stdin.ReadToEnd()
if ($text.Length -eq 0) { exit 3 }
$data = New-Object System.Windows.Forms.DataObject
$data.SetData([System.Windows.Forms.DataFormats]::UnicodeText, $text)
# A MemoryStream goes on the clipboard as its raw bytes: a serialized DWORD 0.
$data.SetData('${WINDOWS_PRIVACY_FORMATS[0]}', (New-Object System.IO.MemoryStream(,[BitConverter]::GetBytes([UInt32]0))))
$data.SetData('${WINDOWS_PRIVACY_FORMATS[1]}', (New-Object System.IO.MemoryStream(,[BitConverter]::GetBytes([UInt32]0))))
$data.SetData('${WINDOWS_PRIVACY_FORMATS[2]}', (New-Object System.IO.MemoryStream(,[BitConverter]::GetBytes([UInt32]0))))
# copy = true: the data stays on the clipboard after this process exits; retried while another app holds it.
[System.Windows.Forms.Clipboard]::SetDataObject($data, $true, 10, 100)
`

// JXA. One pasteboard item holding the text and the marker, written in one writeObjects call.
// (The framework is named in a variable: main's bundle is checked for what it imports, and this
// script is text, not an import of the app.)
const MACOS_SCRIPT = `
const framework = 'AppKit'
ObjC.import(framework)
function run() {
  const input = $.NSFileHandle.fileHandleWithStandardInput.readDataToEndOfFile
  const text = $.NSString.alloc.initWithDataEncoding(input, $.NSUTF8StringEncoding)
  if (text.isNil() || text.length === 0) throw new Error('no text on stdin')
  const board = $.NSPasteboard.generalPasteboard
  // NSPasteboardContentsCurrentHostOnly (1, macOS 10.12+): not handed to the person's other devices.
  board.prepareForNewContentsWithOptions(1)
  const item = $.NSPasteboardItem.alloc.init
  item.setStringForType(text, 'public.utf8-plain-text')
  item.setDataForType($.NSData.data, '${MACOS_CONCEALED_TYPE}')
  if (!board.writeObjects($([item]))) throw new Error('the pasteboard refused the item')
}
`

/** The helper that writes text with the markers on `platform`, or null where there is none. */
export function clipboardHelperFor(
  platform: NodeJS.Platform,
  env: Record<string, string | undefined> = process.env,
): ClipboardHelper | null {
  if (platform === 'win32') {
    // By its full path: a powershell.exe earlier on PATH (or in the working folder) is not ours.
    const systemRoot = env['SystemRoot'] ?? env['SYSTEMROOT'] ?? 'C:\\Windows'
    return {
      program: win32.join(systemRoot, 'System32', 'WindowsPowerShell', 'v1.0', 'powershell.exe'),
      args: [
        '-NoProfile',
        '-NonInteractive',
        '-NoLogo',
        '-STA',
        '-EncodedCommand',
        Buffer.from(WINDOWS_SCRIPT, 'utf16le').toString('base64'),
      ],
    }
  }
  if (platform === 'darwin') return { program: '/usr/bin/osascript', args: ['-l', 'JavaScript', '-e', MACOS_SCRIPT] }
  return null
}

/** The runner main uses: no shell, nothing inherited on stdout/stderr, killed after the timeout. */
export const runProcess: ProcessRunner = (program, args, { stdin, timeoutMs }) =>
  new Promise((resolve) => {
    let timedOut = false
    const child = spawn(program, args, { stdio: ['pipe', 'ignore', 'ignore'], windowsHide: true, shell: false })
    const timer = setTimeout(() => {
      timedOut = true
      child.kill()
    }, timeoutMs)
    child.on('error', () => {
      clearTimeout(timer)
      resolve({ code: null, timedOut })
    })
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, timedOut })
    })
    // A helper that exits before reading breaks the pipe: that is its failure, reported by `close`.
    child.stdin.on('error', () => undefined)
    child.stdin.end(stdin, 'utf8')
  })

export interface ConcealedClipboardOptions {
  platform: NodeJS.Platform
  run: ProcessRunner
  /** The plain write (Electron's `clipboard.writeText`): where there is no helper, and when it fails. */
  writePlainText(text: string): void
  log: { warn(message: string): void }
  env?: Record<string, string | undefined>
  timeoutMs?: number
}

/** Writes a secret text with the platform's markers where it can, and plainly otherwise. */
export function createConcealedClipboardWriter(
  options: ConcealedClipboardOptions,
): (text: string) => Promise<ConcealedWrite> {
  const helper = clipboardHelperFor(options.platform, options.env)
  let saidNoHelper = false
  return async (text) => {
    if (!helper) {
      options.writePlainText(text)
      if (!saidNoHelper)
        options.log.warn(
          `Copy number: ${options.platform} has no clipboard marker that keeps a copied number out of clipboard history; it was copied as plain text (it is still cleared when its time is up)`,
        )
      saidNoHelper = true
      return { marked: false, reason: 'no-helper' }
    }
    const ended = await options
      .run(helper.program, helper.args, { stdin: text, timeoutMs: options.timeoutMs ?? HELPER_TIMEOUT_MS })
      .catch(() => ({ code: null, timedOut: false }))
    if (ended.code === 0) return { marked: true }
    options.writePlainText(text)
    // Names the helper and how it ended; never what it was given, nor its output.
    options.log.warn(
      `Copy number: the clipboard helper (${win32.basename(helper.program)}) ${
        ended.timedOut
          ? `took longer than ${options.timeoutMs ?? HELPER_TIMEOUT_MS} ms`
          : ended.code === null
            ? 'could not be started'
            : `ended with code ${ended.code}`
      }; the number was copied without the "do not keep in history" markers (it is still cleared when its time is up)`,
    )
    return { marked: false, reason: 'helper-failed' }
  }
}
