import { mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createFileLogSink } from '../../../../../../electron/main/services/log/file-log'
import { createRedactingLog } from '../../../../../../electron/main/services/log/redacting-log'

const directory = () => mkdtempSync(join(tmpdir(), 'payout-desk-logs-'))

describe('log file', () => {
  it('writes each entry with its time and level to userData/logs/main.log, keys masked in front', () => {
    const logs = directory()
    const sink = createFileLogSink({ directory: logs })
    const log = createRedactingLog(sink)
    // Shaped like a live key, but put together here so no key-shaped text sits in the repository.
    const key = ['sk', 'live', 'abcdef0123456789abcdef'].join('_')
    log.addSecret(key)
    log.info('started')
    log.warn('slow answer', { authorization: `Bearer ${key}` })
    log.error('request failed', new Error(`key ${key} refused`))
    const text = readFileSync(join(logs, 'main.log'), 'utf8')
    expect(sink.file).toBe(join(logs, 'main.log'))
    expect(text).toMatch(/\[info\]\s+started/)
    expect(text).toMatch(/\[warn\]\s+slow answer/)
    expect(text).toMatch(/\[error\] request failed/)
    expect(text).not.toContain(key)
    expect(text).toContain('[redacted]')
  })

  it('is readable by this user only (0600), its archives too, and a log an older version left at 0644 is narrowed', () => {
    const logs = directory()
    writeFileSync(join(logs, 'main.log'), 'an older line\n', { mode: 0o644 })
    writeFileSync(join(logs, 'main.1.log'), 'an archived line\n', { mode: 0o644 })
    const sink = createFileLogSink({ directory: logs, maxBytes: 2000, keep: 3 })
    for (let line = 0; line < 100; line += 1) sink.info(`line ${line} ${'x'.repeat(50)}`)
    const names = readdirSync(logs).sort()
    expect(names.length).toBeGreaterThanOrEqual(3)
    for (const name of names) expect(statSync(join(logs, name)).mode & 0o777, name).toBe(0o600)
  })

  it('masks the forms a registered key may be echoed in: upper and lower case, base64 at any alignment, its long tail', () => {
    const logs = directory()
    const sink = createFileLogSink({ directory: logs })
    const log = createRedactingLog(sink)
    const key = ['sk', 'live', 'Q7f3Kd92LmZx0PwT4yBn'].join('_')
    log.addSecret(key)
    const forms = [
      key.toUpperCase(),
      key.toLowerCase(),
      Buffer.from(key).toString('base64'),
      Buffer.from(`merchant:${key}`).toString('base64'),
      Buffer.from(`ab:${key}:x`).toString('base64url'),
      'Q7f3Kd92LmZx0PwT4yBn',
    ]
    for (const form of forms) log.warn(`the service said: ${form}`)
    const text = readFileSync(join(logs, 'main.log'), 'utf8')
    for (const form of forms) {
      // What remains of a form is at most a few characters at its edges (the bytes around the key).
      const core = form.length > 12 ? form.slice(4, -4) : form
      expect(text, form).not.toContain(core)
    }
    expect(text.match(/\[redacted\]/g)?.length).toBeGreaterThanOrEqual(forms.length)
  })

  it('rotates at its size limit and keeps only the newest files', () => {
    const logs = directory()
    const sink = createFileLogSink({ directory: logs, maxBytes: 2000, keep: 2 })
    for (let line = 0; line < 200; line += 1) sink.info(`line ${line} ${'x'.repeat(50)}`)
    expect(readdirSync(logs).sort()).toEqual(['main.1.log', 'main.2.log', 'main.log'])
    const all = ['main.2.log', 'main.1.log', 'main.log'].map((name) => readFileSync(join(logs, name), 'utf8')).join('')
    expect(all).toContain('line 199 ')
    expect(all).not.toContain('line 0 ')
    for (const name of readdirSync(logs)) expect(readFileSync(join(logs, name)).length).toBeLessThan(2200)
  })

  it('gives the last lines, reaching into the previous file when the current one is short', () => {
    const logs = directory()
    const sink = createFileLogSink({ directory: logs, maxBytes: 500, keep: 3 })
    for (let line = 0; line < 30; line += 1) sink.info(`entry ${line}`)
    const tail = sink.tail(12)
    expect(tail).toHaveLength(12)
    expect(tail.at(-1)).toMatch(/entry 29$/)
    expect(tail[0]).toMatch(/entry 18$/)
  })

  it('has an empty tail before anything was written', () => {
    expect(createFileLogSink({ directory: directory() }).tail(10)).toEqual([])
  })
})
