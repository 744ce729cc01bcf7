/**
 * What `npm start` shows while Electron's installer runs (scripts/electron-binary.mjs, decision 66):
 * the download's line and its progress, on a terminal and in a log, and the failure an offline
 * machine gets. The whole command against a loopback mirror is in tests/fresh-clone/start.test.ts.
 */
import { describe, expect, it } from 'vitest'
import { describeInstallFailure, downloadDisplay, installFailureLine } from '../../../scripts/electron-binary.mjs'
import type { InstallerEvent } from '../../../scripts/electron-binary.mjs'

const ZIP = 'https://github.com/electron/electron/releases/download/v45.4.1/electron-v45.4.1-linux-x64.zip'
const asked: InstallerEvent[] = [{ event: 'request', url: ZIP }]
const answered: InstallerEvent[] = [...asked, { event: 'response', url: ZIP, status: 200, length: 4_000_000 }]

function output(isTTY: boolean): { written: string[]; out: { isTTY: boolean; write(text: string): boolean } } {
  const written: string[] = []
  return { written, out: { isTTY, write: (text: string) => written.push(text) > 0 } }
}

describe("the installer's download as npm start shows it", () => {
  it('a line when the request leaves, naming the file and the host, once', () => {
    const { written, out } = output(false)
    const display = downloadDisplay(out)
    display.update([], 0)
    expect(written).toEqual([])
    display.update(asked, 0)
    display.update(answered, 0)
    expect(written).toEqual(['Downloading electron-v45.4.1-linux-x64.zip from github.com\n'])
  })

  it('in a log, every quarter passed as a line of its own, even when several pass between two looks', () => {
    const { written, out } = output(false)
    const display = downloadDisplay(out)
    display.update(answered, 500_000)
    display.update(answered, 3_100_000)
    display.update(answered, 3_900_000)
    display.update(answered, 4_000_000)
    display.end()
    expect(written).toEqual([
      'Downloading electron-v45.4.1-linux-x64.zip from github.com\n',
      '  25% of 4.0 MB\n',
      '  50% of 4.0 MB\n',
      '  75% of 4.0 MB\n',
    ])
  })

  it('on a terminal, the size and share rewritten in place, then the line ended', () => {
    const { written, out } = output(true)
    const display = downloadDisplay(out)
    display.update(answered, 1_000_000)
    display.update(answered, 2_600_000)
    display.end()
    expect(written).toEqual([
      'Downloading electron-v45.4.1-linux-x64.zip from github.com\n',
      '\r  1.0 MB of 4.0 MB (25%)   ',
      '\r  2.6 MB of 4.0 MB (65%)   ',
      '\n',
    ])
  })

  it('on a terminal with no size announced, the megabytes so far', () => {
    const { written, out } = output(true)
    const display = downloadDisplay(out)
    display.update(asked, 1_500_000)
    expect(written.at(-1)).toBe('\r  1.5 MB   ')
  })
})

describe('an offline machine', () => {
  it('names the host it could not resolve, suggests a mirror, the retry and the bridge, in one line', () => {
    const failure = describeInstallFailure({
      version: '45.4.1',
      events: [...asked, { event: 'failed', url: ZIP, cause: 'getaddrinfo ENOTFOUND github.com' }],
      stderr: 'TypeError: fetch failed\n    at node:internal/deps/undici/undici:14976:13\n',
    })
    expect(installFailureLine(failure, 'npm start')).toBe(
      'Payout Desk cannot start: Electron 45.4.1 could not be downloaded from github.com (getaddrinfo ENOTFOUND github.com).' +
        ' Retry with `npm start`, with ELECTRON_MIRROR=https://<mirror>/electron/ if github.com is blocked from here;' +
        ' meanwhile `npm run bridge` opens the same app in a browser.',
    )
  })
})
