import { describe, expect, it } from 'vitest'
import { appReturnUrl, matchesReturnUrl } from '../../../../../electron/main/windows/return-url'
import { watchThreeDs } from '../../../../../electron/main/windows/three-ds-outcome'
import type { Timers } from '../../../../../electron/main/windows/three-ds-outcome'

const RETURN = 'https://payout-desk.invalid/3ds-return/CHG-12345678'

describe('matchesReturnUrl', () => {
  it('accepts the return URL itself, with any query or fragment the service adds', () => {
    expect(matchesReturnUrl(RETURN, RETURN)).toBe(true)
    expect(matchesReturnUrl(`${RETURN}?reference=CHG-12345678`, RETURN)).toBe(true)
    expect(matchesReturnUrl(`${RETURN}?a=1&b=2#done`, RETURN)).toBe(true)
    expect(matchesReturnUrl('HTTPS://PAYOUT-DESK.INVALID:443/3ds-return/CHG-12345678', RETURN)).toBe(true)
  })

  it('refuses another host serving the same path', () => {
    expect(matchesReturnUrl('https://evil.example/3ds-return/CHG-12345678', RETURN)).toBe(false)
    expect(matchesReturnUrl('https://payout-desk.invalid.evil.example/3ds-return/CHG-12345678', RETURN)).toBe(false)
    expect(matchesReturnUrl('https://evil-payout-desk.invalid/3ds-return/CHG-12345678', RETURN)).toBe(false)
  })

  it('refuses the path under a look-alike origin or as part of a longer path', () => {
    expect(matchesReturnUrl('https://payout-desk.invalid.example/3ds-return/CHG-12345678', RETURN)).toBe(false)
    expect(matchesReturnUrl('https://evil.example/https://payout-desk.invalid/3ds-return/CHG-12345678', RETURN)).toBe(
      false,
    )
    expect(matchesReturnUrl(`${RETURN}/more`, RETURN)).toBe(false)
    expect(matchesReturnUrl(`${RETURN}-other`, RETURN)).toBe(false)
    expect(matchesReturnUrl(`${RETURN}/`, RETURN)).toBe(false)
    expect(matchesReturnUrl('https://payout-desk.invalid/3ds-return/CHG-1234567', RETURN)).toBe(false)
    expect(matchesReturnUrl(`https://evil.example/?next=${encodeURIComponent(RETURN)}`, RETURN)).toBe(false)
  })

  it('refuses userinfo tricks either way round', () => {
    expect(matchesReturnUrl('https://payout-desk.invalid@evil.example/3ds-return/CHG-12345678', RETURN)).toBe(false)
    expect(matchesReturnUrl('https://evil.example@payout-desk.invalid/3ds-return/CHG-12345678', RETURN)).toBe(false)
    expect(matchesReturnUrl('https://user:pass@payout-desk.invalid/3ds-return/CHG-12345678', RETURN)).toBe(false)
  })

  it('refuses other ports and other schemes', () => {
    expect(matchesReturnUrl('https://payout-desk.invalid:8443/3ds-return/CHG-12345678', RETURN)).toBe(false)
    expect(matchesReturnUrl('http://payout-desk.invalid/3ds-return/CHG-12345678', RETURN)).toBe(false)
    expect(matchesReturnUrl('ftp://payout-desk.invalid/3ds-return/CHG-12345678', RETURN)).toBe(false)
    expect(matchesReturnUrl('javascript:alert(1)//payout-desk.invalid/3ds-return/CHG-12345678', RETURN)).toBe(false)
    expect(matchesReturnUrl('data:text/html,https://payout-desk.invalid/3ds-return/CHG-12345678', RETURN)).toBe(false)
    expect(matchesReturnUrl('http://127.0.0.1:5000/3ds-return/x', 'http://127.0.0.1:5001/3ds-return/x')).toBe(false)
  })

  it('refuses encoded look-alikes of the path and host', () => {
    expect(matchesReturnUrl('https://payout-desk.invalid/3ds%2Dreturn/CHG-12345678', RETURN)).toBe(false)
    expect(matchesReturnUrl('https://payout-desk.invalid/3ds-return%2FCHG-12345678', RETURN)).toBe(false)
    expect(matchesReturnUrl('https://payout-desk.invalid/3ds-return/CHG-12345678%00', RETURN)).toBe(false)
    expect(matchesReturnUrl('https://payout-desk.invalid/%33ds-return/CHG-12345678', RETURN)).toBe(false)
    expect(matchesReturnUrl('https://payout-desk.invalid%2Eevil.example/3ds-return/CHG-12345678', RETURN)).toBe(false)
    // An encoded host is decoded by the URL parser exactly as the browser does: the same host.
    expect(matchesReturnUrl('https://payout-desk%2Einvalid/3ds-return/CHG-12345678', RETURN)).toBe(true)
    expect(matchesReturnUrl('https://payout-desk.invalid/3ds-return/CHG-12345678%3Freference=x', RETURN)).toBe(false)
  })

  it('treats a difference only in the query or fragment as the same place, and nothing unparsable as a match', () => {
    expect(matchesReturnUrl(`${RETURN}?reference=OTHER`, `${RETURN}?mine=1`)).toBe(true)
    expect(matchesReturnUrl('not a url', RETURN)).toBe(false)
    expect(matchesReturnUrl(RETURN, 'not a url')).toBe(false)
    expect(matchesReturnUrl('', RETURN)).toBe(false)
  })

  it('builds the app return URL on a host that can never resolve', () => {
    expect(appReturnUrl('CHG-12345678')).toBe(RETURN)
    expect(new URL(appReturnUrl('a/b?c')).pathname).toBe('/3ds-return/a%2Fb%3Fc')
  })
})

class ManualTimers implements Timers {
  pending: Array<{ callback: () => void; ms: number; cleared: boolean }> = []
  setTimeout(callback: () => void, ms: number) {
    const entry = { callback, ms, cleared: false }
    this.pending.push(entry)
    return entry
  }
  clearTimeout(handle: unknown) {
    ;(handle as { cleared: boolean }).cleared = true
  }
  fire(): void {
    for (const entry of this.pending) if (!entry.cleared) entry.callback()
  }
}

describe('watchThreeDs (the 3-D Secure window logic)', () => {
  it('ends "returned" at the first navigation to the return URL, and only then', async () => {
    const watch = watchThreeDs({ returnUrl: RETURN, mode: 'sandbox', timers: new ManualTimers() })
    expect(watch.navigated('https://bank.example/3ds?tx=1')).toBe(false)
    expect(watch.navigated('https://evil.example@payout-desk.invalid/3ds-return/CHG-12345678')).toBe(false)
    expect(watch.settled).toBe(false)
    expect(watch.navigated(`${RETURN}?reference=CHG-12345678`)).toBe(true)
    expect(await watch.outcome).toBe('returned')
    // Later events change nothing.
    watch.closed()
    expect(await watch.outcome).toBe('returned')
  })

  it('ends "closed" when the window is closed by hand, "failed_to_open" when the page does not load', async () => {
    const closed = watchThreeDs({ returnUrl: RETURN, mode: 'sandbox', timers: new ManualTimers() })
    closed.closed()
    expect(await closed.outcome).toBe('closed')
    const failed = watchThreeDs({ returnUrl: RETURN, mode: 'sandbox', timers: new ManualTimers() })
    failed.failedToOpen()
    expect(await failed.outcome).toBe('failed_to_open')
  })

  it('times out after 10 minutes by default, and the timer is dropped once it ended otherwise', async () => {
    const timers = new ManualTimers()
    const watch = watchThreeDs({ returnUrl: RETURN, mode: 'sandbox', timers })
    expect(timers.pending[0]?.ms).toBe(10 * 60 * 1000)
    timers.fire()
    expect(await watch.outcome).toBe('timed_out')

    const other = new ManualTimers()
    const returned = watchThreeDs({ returnUrl: RETURN, mode: 'sandbox', timers: other })
    returned.navigated(RETURN)
    expect(other.pending[0]?.cleared).toBe(true)
  })

  it('in Live, lets the window go to https pages only: never http, not even on this machine', () => {
    const watch = watchThreeDs({ returnUrl: RETURN, mode: 'live', timers: new ManualTimers() })
    expect(watch.mayNavigate('https://bank.example/acs')).toBe(true)
    expect(watch.mayNavigate('http://127.0.0.1:4010/sandbox/3ds/CHG-1')).toBe(false)
    expect(watch.mayNavigate('http://localhost:4010/sandbox/3ds/CHG-1')).toBe(false)
    expect(watch.mayNavigate('http://[::1]:4010/sandbox/3ds/CHG-1')).toBe(false)
    // A test profile rehearses with the Sandbox like the Sandbox profile does.
    const test = watchThreeDs({ returnUrl: RETURN, mode: 'test', timers: new ManualTimers() })
    expect(test.mayNavigate('http://127.0.0.1:4010/sandbox/3ds/CHG-1')).toBe(true)
  })

  it('lets the window go to https pages, and to http only on this machine (the embedded Sandbox)', () => {
    const watch = watchThreeDs({ returnUrl: RETURN, mode: 'sandbox', timers: new ManualTimers() })
    expect(watch.mayNavigate('https://bank.example/acs')).toBe(true)
    expect(watch.mayNavigate('http://127.0.0.1:4010/sandbox/3ds/CHG-1')).toBe(true)
    expect(watch.mayNavigate('http://localhost:4010/sandbox/3ds/CHG-1')).toBe(true)
    expect(watch.mayNavigate('http://bank.example/acs')).toBe(false)
    expect(watch.mayNavigate('http://127.0.0.1.evil.example/acs')).toBe(false)
    expect(watch.mayNavigate('https://user:pass@bank.example/acs')).toBe(false)
    expect(watch.mayNavigate('file:///etc/passwd')).toBe(false)
    expect(watch.mayNavigate('javascript:alert(1)')).toBe(false)
    expect(watch.mayNavigate('data:text/html,hi')).toBe(false)
  })
})
