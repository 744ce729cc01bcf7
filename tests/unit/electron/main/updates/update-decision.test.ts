import { describe, expect, it } from 'vitest'
import type { UpdateStatus } from '../../../../../shared/domain/diagnostics'
import {
  nextUpdateStatus,
  restartDecision,
  updateCheckPlan,
  updateNotice,
} from '../../../../../electron/main/updates/update-decision'
import type { UpdaterEvent } from '../../../../../electron/main/updates/update-decision'

describe('when updates are checked', () => {
  it('never in development or the Sandbox-only run from a checkout (not packaged)', () => {
    expect(updateCheckPlan({ isPackaged: false, env: {} })).toEqual({
      check: false,
      reason: 'Updates are checked only by the installed app.',
    })
  })

  it('at start in a packaged build, unless turned off for the computer', () => {
    expect(updateCheckPlan({ isPackaged: true, env: {} })).toEqual({ check: true })
    expect(updateCheckPlan({ isPackaged: true, env: { PAYOUT_DESK_DISABLE_UPDATES: '1' } })).toMatchObject({
      check: false,
    })
  })
})

describe('update status', () => {
  const run = (events: UpdaterEvent[]) =>
    events.reduce<UpdateStatus>((status, event) => nextUpdateStatus(status, event), { state: 'idle' })

  it('goes checking, downloading, ready, and tells the user once when it is ready', () => {
    expect(run([{ kind: 'checking' }])).toEqual({ state: 'checking' })
    expect(run([{ kind: 'checking' }, { kind: 'available', version: '1.1.0' }])).toEqual({
      state: 'downloading',
      version: '1.1.0',
    })
    const ready = run([
      { kind: 'checking' },
      { kind: 'available', version: '1.1.0' },
      { kind: 'downloaded', version: '1.1.0' },
    ])
    expect(ready).toEqual({ state: 'ready', version: '1.1.0' })
    expect(updateNotice({ state: 'downloading', version: '1.1.0' }, ready)).toContain('1.1.0 is ready to install')
    expect(updateNotice(ready, ready)).toBeNull()
    expect(updateNotice({ state: 'checking' }, { state: 'none' })).toBeNull()
  })

  it('says nothing is new, or that the check failed, without a notice', () => {
    expect(run([{ kind: 'checking' }, { kind: 'not-available' }])).toEqual({ state: 'none' })
    const failed = run([{ kind: 'checking' }, { kind: 'error', message: 'offline' }])
    expect(failed).toEqual({ state: 'error', message: 'offline' })
    expect(updateNotice({ state: 'checking' }, failed)).toBeNull()
  })

  it('keeps a downloaded update ready whatever a later check says', () => {
    const ready: UpdateStatus = { state: 'ready', version: '2.0.0' }
    expect(nextUpdateStatus(ready, { kind: 'error', message: 'offline' })).toBe(ready)
    expect(nextUpdateStatus(ready, { kind: 'not-available' })).toBe(ready)
  })
})

describe('restart to update', () => {
  it('restarts only when an update is ready and the user asks', () => {
    expect(restartDecision({ state: 'ready', version: '1.1.0' }, 0)).toEqual({ restart: true })
    expect(restartDecision({ state: 'downloading', version: '1.1.0' }, 0)).toEqual({
      restart: false,
      reason: 'No update is ready to install.',
    })
  })

  it('waits while money movements are on their way out', () => {
    expect(restartDecision({ state: 'ready', version: '1.1.0' }, 2)).toEqual({
      restart: false,
      reason: '2 money movements are waiting for an answer; restart when they have finished.',
    })
  })
})
