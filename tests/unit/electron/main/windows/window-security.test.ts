/**
 * Window security as the booted app applies it (main started against the recording Electron
 * stand-in): every window it creates is isolated, sandboxed and without Node, whatever asked for
 * it; the page it trusts is app:// (or the dev server), never a file:// page.
 */
import { describe, expect, it } from 'vitest'
import { createAppUrlMatcher } from '../../../../../electron/main/windows/app-url'
import { secureWebPreferences } from '../../../../../electron/main/windows/web-preferences'
import { boot } from '../boot-main'

const HARDENED = {
  contextIsolation: true,
  sandbox: true,
  nodeIntegration: false,
  nodeIntegrationInWorker: false,
  nodeIntegrationInSubFrames: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  experimentalFeatures: false,
  webviewTag: false,
  navigateOnDragDrop: false,
}

describe('every window the app creates', () => {
  it('is isolated, sandboxed and without Node: the main window and a 3-D Secure window alike, with the renderer sandbox on app-wide', async () => {
    const booted = await boot()
    await booted.ready()
    expect(booted.rec.calls).toContain('app.enableSandbox')
    void booted.started[0]!.desktop.authWindow.open({
      reference: 'CHG-1',
      url: 'https://acs.bank.example/challenge',
      returnUrl: 'https://payout-desk.invalid/3ds-return/CHG-1',
      timeoutMs: 60_000,
      mode: 'live',
    })
    expect(booted.rec.windows).toHaveLength(2)
    for (const window of booted.rec.windows) {
      const preferences = (window.options as { webPreferences: Record<string, unknown> }).webPreferences
      expect(preferences).toMatchObject(HARDENED)
      // Nothing beyond the factory's output: no enableBlinkFeatures, no additionalArguments.
      expect(Object.keys(preferences).sort()).toEqual(
        Object.keys(secureWebPreferences({ preload: 'p', partition: 'q' }))
          .filter((key) => key in preferences)
          .sort(),
      )
    }
    // Only the main window has the preload (the bank's page gets no bridge into the app).
    const preloads = booted.rec.windows.map(
      (w) => (w.options as { webPreferences: { preload?: string } }).webPreferences.preload,
    )
    expect(preloads[0]).toMatch(/out\/preload\/index\.js$/)
    expect(preloads[1]).toBeUndefined()
  })

  it('cannot be talked out of its hardening by a caller', () => {
    const sneaky = { preload: '/p.js', nodeIntegration: true, sandbox: false, webSecurity: false } as unknown as {
      preload: string
    }
    expect(secureWebPreferences(sneaky)).toMatchObject({ ...HARDENED, preload: '/p.js' })
  })
})

describe('the page the app trusts', () => {
  it('is app://payout-desk/ by scheme and host, on any path of it', () => {
    const isApp = createAppUrlMatcher('app://payout-desk/index.html')
    expect(isApp('app://payout-desk/index.html')).toBe(true)
    expect(isApp('app://payout-desk/index.html#/settings')).toBe(true)
    expect(isApp('APP://PAYOUT-DESK/index.html')).toBe(true)
    expect(isApp('app://payout-desk.evil.example/index.html')).toBe(false)
    expect(isApp('app://evil/index.html')).toBe(false)
    expect(isApp('app://user:pw@payout-desk/index.html')).toBe(false)
    expect(isApp('https://payout-desk/index.html')).toBe(false)
    expect(isApp('not a url')).toBe(false)
  })

  it('is never a file:// page: our own built page opened from disk is refused, and main cannot be set to serve one', () => {
    const isApp = createAppUrlMatcher('app://payout-desk/index.html')
    expect(isApp('file:///opt/Payout%20Desk/resources/app.asar/out/renderer/index.html')).toBe(false)
    expect(isApp('file:///etc/passwd')).toBe(false)
    expect(() => createAppUrlMatcher('file:///opt/Payout%20Desk/resources/app.asar/out/renderer/index.html')).toThrow(
      /never from file:/,
    )
  })

  it('is the dev server under `npm run dev`, by origin, not by string prefix', () => {
    const isApp = createAppUrlMatcher('http://localhost:5173/')
    expect(isApp('http://localhost:5173/#/payouts')).toBe(true)
    expect(isApp('http://localhost:5173.evil.example/')).toBe(false)
    expect(isApp('http://localhost:5174/')).toBe(false)
    expect(isApp('app://payout-desk/index.html')).toBe(false)
  })
})
