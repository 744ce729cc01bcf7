/**
 * Copy number through the desktop clipboard adapter (decision 114): on Windows and macOS the
 * number goes to the platform's helper on stdin, with the "do not keep in history" markers in the
 * helper's script and nothing of the number in its arguments; a helper that fails falls back to
 * Electron's plain write and the log says so without the number; Linux writes plain text. The
 * helper is an injected process runner here (the real helpers run only on Windows and macOS); the
 * real runner is exercised with Node as the program.
 */
import { describe, expect, it } from 'vitest'
import { runProcess } from '../../../../../electron/main/adapters/concealed-clipboard'
import type { ProcessRunner } from '../../../../../electron/main/adapters/concealed-clipboard'
import { createElectronDesktop } from '../../../../../electron/main/adapters/electron-desktop'
import type { ElectronApi } from '../../../../../electron/main/electron-api'
import { createCardSecrets } from '../../../../../electron/main/services/cards/card-secrets'
import { createRedactingLog } from '../../../../../electron/main/services/log/redacting-log'
import type { ServiceContext } from '../../../../../electron/main/services/service-context'
import { cardNumbersIn } from '../../../../../shared/rules/sensitive-data'

const PAN = '5399838383838381'

interface Call {
  program: string
  args: readonly string[]
  stdin: string
  timeoutMs: number
}

/** The system clipboard as Electron sees it, and what Electron's own API wrote to it. */
function fakeSystem() {
  const system = { text: '', electronWrites: [] as string[] }
  const clipboard = {
    writeText: (text: string) => {
      system.electronWrites.push(text)
      system.text = text
    },
    readText: () => system.text,
    clear: () => {
      system.text = ''
    },
  }
  return {
    system,
    electron: { clipboard } as unknown as Pick<
      ElectronApi,
      'BrowserWindow' | 'clipboard' | 'dialog' | 'Notification' | 'session'
    >,
  }
}

/** A helper that does what the real one does to the clipboard (puts stdin there) and ends with `code`. */
function fakeHelper(
  system: { text: string },
  ending: { code: number | null; timedOut?: boolean } | 'throws' = { code: 0 },
) {
  const calls: Call[] = []
  const run: ProcessRunner = async (program, args, options) => {
    calls.push({ program, args, ...options })
    if (ending === 'throws') throw new Error('spawn EACCES')
    if (ending.code === 0) system.text = options.stdin
    return { code: ending.code, timedOut: ending.timedOut ?? false }
  }
  return { calls, run }
}

function desktopOn(platform: NodeJS.Platform, ending?: Parameters<typeof fakeHelper>[1]) {
  const { system, electron } = fakeSystem()
  const helper = fakeHelper(system, ending)
  const warnings: string[] = []
  const desktop = createElectronDesktop(
    electron,
    () => null,
    { warn: (message) => void warnings.push(message) },
    {
      platform,
      runProcess: helper.run,
    },
  )
  return { system, helper, warnings, clipboard: desktop.clipboard }
}

/** No card number (however written) and no run of its digits in any of `texts`. */
function expectNoCardNumber(texts: readonly string[]): void {
  for (const text of texts) {
    expect(text).not.toContain(PAN)
    expect(text).not.toContain(PAN.slice(0, 8))
    expect(cardNumbersIn(text)).toEqual([])
  }
}

const decoded = (args: readonly string[]): string => {
  const encoded = args[args.indexOf('-EncodedCommand') + 1]
  return Buffer.from(encoded ?? '', 'base64').toString('utf16le')
}

describe('copy number on Windows', () => {
  it('goes to Windows PowerShell on stdin, with the Clipboard History and Cloud Clipboard exclusion formats, not through Electron', async () => {
    const { system, helper, warnings, clipboard } = desktopOn('win32')
    expect(await clipboard.writeSecretText(PAN)).toEqual({ marked: true })

    expect(helper.calls).toHaveLength(1)
    const [call] = helper.calls as [Call]
    expect(call.program).toMatch(/\\System32\\WindowsPowerShell\\v1\.0\\powershell\.exe$/)
    expect(call.args.slice(0, 4)).toEqual(['-NoProfile', '-NonInteractive', '-NoLogo', '-STA'])
    expect(call.args).toContain('-EncodedCommand')
    expect(call.stdin).toBe(PAN)
    expectNoCardNumber([call.program, ...call.args, decoded(call.args)])

    const script = decoded(call.args)
    expect(script).toContain('Add-Type -AssemblyName System.Windows.Forms')
    expect(script).toContain('New-Object System.Windows.Forms.DataObject')
    expect(script).toContain('[System.Windows.Forms.DataFormats]::UnicodeText')
    expect(script).toContain('[Console]::OpenStandardInput()')
    // Microsoft's documented names; the two "Can…" formats hold a serialized DWORD 0.
    expect(script).toMatch(/SetData\('ExcludeClipboardContentFromMonitorProcessing', /)
    expect(script).toMatch(
      /SetData\('CanIncludeInClipboardHistory', \(New-Object System\.IO\.MemoryStream\(,\[BitConverter\]::GetBytes\(\[UInt32\]0\)\)\)\)/,
    )
    expect(script).toMatch(
      /SetData\('CanUploadToCloudClipboard', \(New-Object System\.IO\.MemoryStream\(,\[BitConverter\]::GetBytes\(\[UInt32\]0\)\)\)\)/,
    )
    // Copy = true: it stays after the helper exits.
    expect(script).toContain('[System.Windows.Forms.Clipboard]::SetDataObject($data, $true')

    // Electron's write would replace the helper's formats: it is not used when the helper worked.
    expect(system.electronWrites).toEqual([])
    expect(system.text).toBe(PAN)
    expect(warnings).toEqual([])
  })

  it('finds PowerShell under the system root, never by PATH', async () => {
    const { system, electron } = fakeSystem()
    const helper = fakeHelper(system)
    const saved = process.env['SystemRoot']
    process.env['SystemRoot'] = 'D:\\Win'
    try {
      const desktop = createElectronDesktop(
        electron,
        () => null,
        { warn: () => undefined },
        { platform: 'win32', runProcess: helper.run },
      )
      await desktop.clipboard.writeSecretText(PAN)
    } finally {
      if (saved === undefined) delete process.env['SystemRoot']
      else process.env['SystemRoot'] = saved
    }
    expect(helper.calls[0]?.program).toBe('D:\\Win\\System32\\WindowsPowerShell\\v1.0\\powershell.exe')
  })
})

describe('copy number on macOS', () => {
  it('goes to osascript (JXA) on stdin, one pasteboard item with the text and the concealed marker, this Mac only', async () => {
    const { system, helper, warnings, clipboard } = desktopOn('darwin')
    expect(await clipboard.writeSecretText(PAN)).toEqual({ marked: true })

    const [call] = helper.calls as [Call]
    expect(call.program).toBe('/usr/bin/osascript')
    expect(call.args.slice(0, 3)).toEqual(['-l', 'JavaScript', '-e'])
    expect(call.args).toHaveLength(4)
    expect(call.stdin).toBe(PAN)
    expectNoCardNumber([call.program, ...call.args])

    const script = call.args[3] ?? ''
    expect(script).toContain('fileHandleWithStandardInput.readDataToEndOfFile')
    expect(script).toContain('$.NSPasteboard.generalPasteboard')
    expect(script).toContain('prepareForNewContentsWithOptions(1)')
    expect(script).toContain("setStringForType(text, 'public.utf8-plain-text')")
    expect(script).toContain("setDataForType($.NSData.data, 'org.nspasteboard.ConcealedType')")
    // One item, one write: the marker cannot be missing from what holds the number.
    expect(script.match(/writeObjects\(/g)).toHaveLength(1)
    // Transient means "gone within seconds, never shown": not what a number the person pastes is.
    expect(script).not.toContain('TransientType')

    expect(system.electronWrites).toEqual([])
    expect(system.text).toBe(PAN)
    expect(warnings).toEqual([])
  })
})

describe('a helper that fails', () => {
  for (const [what, ending, said] of [
    ['ends with an error', { code: 1 }, /ended with code 1/],
    ['cannot be started', 'throws', /could not be started/],
    ['is not there', { code: null }, /could not be started/],
    ['takes too long', { code: null, timedOut: true }, /took longer than 8000 ms/],
  ] as const) {
    for (const platform of ['win32', 'darwin'] as const)
      it(`${platform}: ${what}: the number is still copied, by Electron, and the log says the markers were not set, without the number`, async () => {
        const { system, helper, warnings, clipboard } = desktopOn(platform, ending)
        expect(await clipboard.writeSecretText(PAN)).toEqual({ marked: false, reason: 'helper-failed' })
        expect(helper.calls).toHaveLength(1)
        expect(system.electronWrites).toEqual([PAN])
        expect(system.text).toBe(PAN)
        expect(warnings).toHaveLength(1)
        expect(warnings[0]).toMatch(said)
        expect(warnings[0]).toContain('without the "do not keep in history" markers')
        expectNoCardNumber(warnings)
      })
  }
})

describe('copy number on Linux', () => {
  it('writes plain text through Electron, runs no helper, and says once that no marker exists there', async () => {
    const { system, helper, warnings, clipboard } = desktopOn('linux')
    expect(await clipboard.writeSecretText(PAN)).toEqual({ marked: false, reason: 'no-helper' })
    expect(await clipboard.writeSecretText(PAN)).toEqual({ marked: false, reason: 'no-helper' })
    expect(helper.calls).toEqual([])
    expect(system.electronWrites).toEqual([PAN, PAN])
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(/linux has no clipboard marker/)
    expectNoCardNumber(warnings)
  })
})

describe('the 30 s clear, through the adapter', () => {
  function cardSecretsOn(platform: NodeJS.Platform) {
    const desktop = desktopOn(platform)
    const lines: string[] = []
    const log = createRedactingLog({
      error: (...parts: unknown[]) => void lines.push(parts.join(' ')),
      warn: (...parts: unknown[]) => void lines.push(parts.join(' ')),
    })
    const context = {
      log,
      desktop: { clipboard: desktop.clipboard },
      apiFor: async () => ({ api: { cards: { get: async () => ({ pan: PAN }) } } }),
    } as unknown as ServiceContext
    return { ...desktop, secrets: createCardSecrets(context, { clipboardClearMs: 100 }) }
  }
  const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

  for (const platform of ['win32', 'darwin', 'linux'] as const) {
    it(`${platform}: a copied number is taken off when its time is up, and something the person copied since is left`, async () => {
      const first = cardSecretsOn(platform)
      // The screen is told whether the markers went with it.
      expect(await first.secrets.copyNumber('card-1')).toEqual({
        clearAfterMs: 100,
        keptOutOfHistory: platform !== 'linux',
      })
      expect(first.system.text).toBe(PAN)
      await settle(300)
      expect(first.system.text).toBe('')

      const second = cardSecretsOn(platform)
      await second.secrets.copyNumber('card-1')
      second.system.text = 'the person copied this'
      await settle(300)
      expect(second.system.text).toBe('the person copied this')
      expect(second.secrets.held).toBe(0)
    })
  }
})

describe('the real process runner', () => {
  it('hands stdin to the program and answers its exit code', async () => {
    const check = `let s='';process.stdin.on('data',d=>s+=d).on('end',()=>process.exit(s==='${PAN}'?0:7))`
    expect(await runProcess(process.execPath, ['-e', check], { stdin: PAN, timeoutMs: 20_000 })).toEqual({
      code: 0,
      timedOut: false,
    })
    expect(await runProcess(process.execPath, ['-e', check], { stdin: 'other', timeoutMs: 20_000 })).toEqual({
      code: 7,
      timedOut: false,
    })
  })

  it('stops a program that takes too long, and answers a missing one as not started', async () => {
    expect(
      await runProcess(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdin: '', timeoutMs: 300 }),
    ).toMatchObject({ timedOut: true })
    expect(await runProcess('/nonexistent/osascript', [], { stdin: PAN, timeoutMs: 5_000 })).toEqual({
      code: null,
      timedOut: false,
    })
  })
})
