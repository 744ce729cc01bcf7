import { describe, expect, it } from 'vitest'
import { createRedactingLog } from '../../../../../../electron/main/services/log/redacting-log'

function capture() {
  const lines: string[] = []
  const sink = {
    error: (...parts: unknown[]) => lines.push(parts.map(String).join(' ')),
    warn: (...parts: unknown[]) => lines.push(parts.map(String).join(' ')),
  }
  return { lines, sink }
}

describe('redacting log', () => {
  it('masks every registered key in messages, error stacks and objects', () => {
    const { lines, sink } = capture()
    const log = createRedactingLog(sink)
    const key = 'sk_test_0123456789abcdef0123456789'
    log.addSecret(key)
    log.error(`request with ${key} failed`)
    log.error('failure', new Error(`Authorization: Bearer ${key}`))
    log.warn('payload', { headers: { authorization: `Bearer ${key}` } })
    expect(lines).toHaveLength(3)
    for (const line of lines) {
      expect(line).not.toContain(key)
      expect(line).toContain('[redacted]')
    }
  })

  it('masks CVVs, PINs and OTPs, which are shorter than any key, by field and while they are held', () => {
    const { lines, sink } = capture()
    const log = createRedactingLog(sink)
    log.error('authorize failed', { authorization: { pin: '1234', otp: '123456' }, card: { cvv: '482' } })
    log.error('charge failed: cvv=482 pin=1234')
    const release = log.holdSecrets(['482'])
    log.warn('the service echoed 482 back')
    release()
    log.warn('482 rows imported')
    expect(lines).toEqual([
      'authorize failed {"authorization":"[redacted]","card":{"cvv":"[redacted]"}}',
      'charge failed: cvv=[redacted] pin=[redacted]',
      'the service echoed [redacted] back',
      '482 rows imported',
    ])
  })

  it('masks card numbers by pattern even when nobody registered them', () => {
    const { lines, sink } = capture()
    const log = createRedactingLog(sink)
    log.error('declined', new Error('card 4084 1278 8317 2787 was declined'))
    expect(lines.join('\n')).not.toContain('2787 was')
    expect(lines.join('\n')).toContain('card [redacted] was declined')
  })

  it('leaves ordinary text alone', () => {
    const { lines, sink } = capture()
    const log = createRedactingLog(sink)
    log.addSecret(undefined)
    log.error('abc of payouts: 12 rows, 1234.50 NGN')
    expect(lines).toEqual(['abc of payouts: 12 rows, 1234.50 NGN'])
  })
})
