import { describe, expect, it } from 'vitest'
import { createAppUrlMatcher } from '../../../../../electron/main/windows/app-url'
import { secureWebPreferences } from '../../../../../electron/main/windows/web-preferences'

describe('secureWebPreferences', () => {
  it('isolates, sandboxes and keeps Node out of every window', () => {
    const preferences = secureWebPreferences({ preload: '/app/out/preload/index.js' })
    expect(preferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      preload: '/app/out/preload/index.js',
    })
  })

  it('gives a window without a preload none, and its own partition when asked (the 3-D Secure window)', () => {
    const preferences = secureWebPreferences({ partition: 'three-ds' })
    expect(preferences).not.toHaveProperty('preload')
    expect(preferences.partition).toBe('three-ds')
    expect(preferences.sandbox).toBe(true)
  })
})

describe('app URL matcher', () => {
  it('accepts only the packaged index.html by parsed path', () => {
    const isApp = createAppUrlMatcher('file:///opt/Payout%20Desk/resources/app.asar/out/renderer/index.html')
    expect(isApp('file:///opt/Payout%20Desk/resources/app.asar/out/renderer/index.html#/settings')).toBe(true)
    expect(isApp('file:///opt/Payout%20Desk/resources/app.asar/out/renderer/other.html')).toBe(false)
    expect(isApp('file:///etc/passwd')).toBe(false)
    expect(isApp('https://evil.example/out/renderer/index.html')).toBe(false)
    expect(isApp('not a url')).toBe(false)
  })

  it('matches the dev server by origin, not by string prefix', () => {
    const isApp = createAppUrlMatcher('http://localhost:5173/')
    expect(isApp('http://localhost:5173/#/payouts')).toBe(true)
    expect(isApp('http://localhost:5173.evil.example/')).toBe(false)
    expect(isApp('http://localhost:5174/')).toBe(false)
  })
})
