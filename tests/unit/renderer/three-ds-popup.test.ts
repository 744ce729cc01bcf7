/**
 * The browser surface's 3-D Secure popup (bridge only): it checks the same page rule as main's
 * window before it opens (shared/rules/auth-page.ts), and reports where the popup goes.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { openThreeDsPopup } from '../../../renderer/src/api/three-ds-popup'

interface FakePopup {
  closed: boolean
  location: { href: string }
  close(): void
}

function fakeWindow(popup: FakePopup | null) {
  const opened: string[] = []
  const fake = {
    open: vi.fn((url: string) => {
      opened.push(url)
      return popup
    }),
    setInterval: (callback: () => void, ms: number) => setInterval(callback, ms),
    clearInterval: (handle: ReturnType<typeof setInterval>) => clearInterval(handle),
  }
  vi.stubGlobal('window', fake)
  return { fake, opened }
}

afterEach(() => vi.unstubAllGlobals())

describe('the 3-D Secure popup of the browser surface', () => {
  it('never opens a plain http page on this machine for a Live charge: main hears it closed', async () => {
    const { opened } = fakeWindow({ closed: false, location: { href: 'about:blank' }, close: () => undefined })
    const reports: Array<string | null> = []
    const report = vi.fn(async ({ location }: { reference: string; location: string | null }) => {
      reports.push(location)
      return { ok: true as const, data: { ended: true } }
    })
    expect(openThreeDsPopup('CHG-1', 'http://127.0.0.1:4010/sandbox/3ds/CHG-1', 'live', report)).toBe('refused')
    expect(openThreeDsPopup('CHG-2', 'javascript:alert(1)', 'sandbox', report)).toBe('refused')
    await Promise.resolve()
    expect(opened).toEqual([])
    expect(reports).toEqual([null, null])
  })

  it('opens the Sandbox page for a Sandbox charge and an https page for a Live one, and reports the return', async () => {
    vi.useFakeTimers()
    try {
      const popup: FakePopup = { closed: false, location: { href: 'about:blank' }, close: vi.fn() }
      const { opened } = fakeWindow(popup)
      const reports: Array<string | null> = []
      const report = async ({ location }: { reference: string; location: string | null }) => {
        reports.push(location)
        return { ok: true as const, data: { ended: location !== null && location.includes('/3ds-return/') } }
      }
      expect(openThreeDsPopup('CHG-3', 'http://127.0.0.1:4010/sandbox/3ds/CHG-3', 'sandbox', report)).toBe('opened')
      expect(openThreeDsPopup('CHG-4', 'https://acs.bank.example/challenge', 'live', report)).toBe('opened')
      expect(opened).toEqual(['http://127.0.0.1:4010/sandbox/3ds/CHG-3', 'https://acs.bank.example/challenge'])
      popup.location.href = 'http://127.0.0.1:5000/3ds-return/CHG-3'
      await vi.advanceTimersByTimeAsync(300)
      expect(reports).toContain('http://127.0.0.1:5000/3ds-return/CHG-3')
      expect(popup.close).toHaveBeenCalled()
    } finally {
      vi.useRealTimers()
    }
  })

  it('says when the browser blocked the popup, so the screen offers a button', () => {
    fakeWindow(null)
    const report = async () => ({ ok: true as const, data: { ended: false } })
    expect(openThreeDsPopup('CHG-5', 'https://acs.bank.example/challenge', 'live', report)).toBe('blocked')
  })
})
