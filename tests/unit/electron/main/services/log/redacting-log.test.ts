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

  it('leaves ordinary text alone and ignores values too short to be keys', () => {
    const { lines, sink } = capture()
    const log = createRedactingLog(sink)
    log.addSecret('abc')
    log.addSecret(undefined)
    log.error('abc of payouts')
    expect(lines).toEqual(['abc of payouts'])
  })
})
