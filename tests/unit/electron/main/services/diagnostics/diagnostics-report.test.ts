import { describe, expect, it } from 'vitest'
import type { AboutInfo } from '../../../../../../shared/domain/diagnostics'
import { diagnosticsText, maskedLogLine } from '../../../../../../electron/main/services/diagnostics/diagnostics-report'

const about: AboutInfo = {
  name: 'Payout Desk',
  version: '1.2.3',
  transport: 'electron',
  runtime: { electron: '45.4.1', chrome: '142.0', node: '22.1.0' },
  os: { platform: 'win32', release: '10.0.22631', arch: 'x64' },
  logFile: 'C:\\Users\\ada\\AppData\\Roaming\\Payout Desk\\logs\\main.log',
  profileModes: { active: 'live', counts: { sandbox: 1, test: 2, live: 1 } },
}

describe('diagnostics text', () => {
  it('gives versions, OS, profile modes and the last log lines', () => {
    const text = diagnosticsText(about, ['[info] a', '[error] b'], new Date('2026-01-02T03:04:05Z'))
    expect(text.split('\n')).toEqual([
      'Payout Desk 1.2.3 (electron)',
      'Generated: 2026-01-02T03:04:05.000Z',
      'Runtime: Electron 45.4.1, Chrome 142.0, Node 22.1.0',
      'OS: win32 10.0.22631 x64',
      'Profiles: active live; sandbox 1, test 2, live 1',
      `Log file: ${about.logFile}`,
      '--- last 2 log lines ---',
      '[info] a',
      '[error] b',
      '',
    ])
  })

  it('scrubs credentials and secret query values from URLs in log lines', () => {
    expect(maskedLogLine('GET https://ada:hunter2@api.example/v1/x?token=abc123&page=2 failed')).toBe(
      'GET https://[redacted]@api.example/v1/x?token=[redacted]&page=2 failed',
    )
    expect(maskedLogLine('https://api.example/v1?api_key=zzz&secret=yyy#f')).toBe(
      'https://api.example/v1?api_key=[redacted]&secret=[redacted]#f',
    )
    expect(maskedLogLine('plain text with user@example.com')).toBe('plain text with user@example.com')
  })

  it('masks card data in log lines the same way as the log does (a line written before masking, or by hand)', () => {
    const text = diagnosticsText(
      about,
      ['[error] authorize failed {"pin":"1234","otp":"123456"} cvv=739 card 4084 1278 8317 2787'],
      new Date('2026-01-02T03:04:05Z'),
    )
    expect(text).toContain(
      '[error] authorize failed {"pin":"[redacted]","otp":"[redacted]"} cvv=[redacted] card [redacted]',
    )
    expect(text).not.toMatch(/1234|123456|739|2787/)
  })
})
