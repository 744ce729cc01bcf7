import { describe, expect, it } from 'vitest'
import { secondInstanceAction } from '../../../../../electron/main/windows/single-instance'

describe('a second launch of the app', () => {
  it('restores and focuses a minimised window', () => {
    expect(secondInstanceAction({ exists: true, minimized: true, visible: true })).toEqual({
      kind: 'focus',
      restore: true,
      show: false,
    })
  })

  it('shows a hidden window and focuses it', () => {
    expect(secondInstanceAction({ exists: true, minimized: false, visible: false })).toEqual({
      kind: 'focus',
      restore: false,
      show: true,
    })
  })

  it('only focuses a window already on screen', () => {
    expect(secondInstanceAction({ exists: true, minimized: false, visible: true })).toEqual({
      kind: 'focus',
      restore: false,
      show: false,
    })
  })

  it('opens a window when the running copy has none (macOS after closing it)', () => {
    expect(secondInstanceAction({ exists: false, minimized: false, visible: false })).toEqual({ kind: 'open-window' })
  })
})
