import { describe, expect, it } from 'vitest'
import { CRASH_WINDOW_MS, MAX_RELOADS, decideRecovery } from '../../../../../electron/main/windows/renderer-recovery'

describe('renderer recovery', () => {
  it('reloads a crashed renderer and logs the reason and exit code', () => {
    const decision = decideRecovery({ kind: 'gone', reason: 'crashed', exitCode: 139 }, [], 1000)
    expect(decision.action).toBe('reload')
    expect(decision.level).toBe('error')
    expect(decision.message).toContain('reason: crashed, exit code 139')
  })

  it('reloads a renderer that stopped responding', () => {
    const decision = decideRecovery({ kind: 'unresponsive' }, [], 1000)
    expect(decision).toMatchObject({ action: 'reload', level: 'error' })
    expect(decision.message).toContain('stopped responding')
  })

  it('does nothing when the renderer closed normally or answers again', () => {
    expect(decideRecovery({ kind: 'gone', reason: 'clean-exit', exitCode: 0 }, [], 0).action).toBe('none')
    expect(decideRecovery({ kind: 'responsive' }, [], 0).action).toBe('none')
  })

  it('stops reloading a renderer that keeps crashing, and says so', () => {
    const now = 100_000
    const recent = Array.from({ length: MAX_RELOADS }, (_, index) => now - 1000 * (index + 1))
    const decision = decideRecovery({ kind: 'gone', reason: 'oom', exitCode: 1 }, recent, now)
    expect(decision.action).toBe('none')
    expect(decision.message).toContain('not reloading')
    // Old crashes do not count.
    const old = recent.map((time) => time - CRASH_WINDOW_MS)
    expect(decideRecovery({ kind: 'gone', reason: 'oom', exitCode: 1 }, old, now).action).toBe('reload')
  })
})
