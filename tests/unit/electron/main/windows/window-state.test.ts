import { describe, expect, it } from 'vitest'
import {
  EMPTY_WINDOW_STATE,
  displayOf,
  rememberPlacement,
  restorePlacement,
} from '../../../../../electron/main/windows/window-state'
import type { DisplayInfo } from '../../../../../electron/main/windows/window-state'

const limits = { width: 1280, height: 820, minWidth: 960, minHeight: 640 }
const laptop: DisplayInfo = { id: 1, workArea: { x: 0, y: 0, width: 1440, height: 900 } }
const monitor: DisplayInfo = { id: 2, workArea: { x: 1440, y: 0, width: 2560, height: 1440 } }

describe('window placement', () => {
  it('opens centred on the primary display the first time', () => {
    expect(restorePlacement(EMPTY_WINDOW_STATE, [laptop, monitor], limits)).toEqual({
      bounds: { x: 80, y: 40, width: 1280, height: 820 },
      maximized: false,
    })
  })

  it('comes back where it was, maximised or not, on the display it was last on', () => {
    let state = rememberPlacement(EMPTY_WINDOW_STATE, laptop, {
      bounds: { x: 10, y: 20, width: 1000, height: 700 },
      maximized: false,
    })
    state = rememberPlacement(state, monitor, {
      bounds: { x: 1600, y: 100, width: 1800, height: 1000 },
      maximized: true,
    })
    expect(restorePlacement(state, [laptop, monitor], limits)).toEqual({
      bounds: { x: 1600, y: 100, width: 1800, height: 1000 },
      maximized: true,
    })
  })

  it('uses the placement of a display that still exists when the last one was unplugged', () => {
    let state = rememberPlacement(EMPTY_WINDOW_STATE, laptop, {
      bounds: { x: 10, y: 20, width: 1000, height: 700 },
      maximized: false,
    })
    state = rememberPlacement(state, monitor, {
      bounds: { x: 1600, y: 100, width: 1800, height: 1000 },
      maximized: true,
    })
    expect(restorePlacement(state, [laptop], limits)).toEqual({
      bounds: { x: 10, y: 20, width: 1000, height: 700 },
      maximized: false,
    })
  })

  it('never opens off-screen: a window saved on a display that no longer exists opens on the primary one', () => {
    const state = rememberPlacement(EMPTY_WINDOW_STATE, monitor, {
      bounds: { x: 3000, y: 900, width: 1800, height: 1000 },
      maximized: false,
    })
    const placed = restorePlacement(state, [laptop], limits)
    expect(placed.bounds).toEqual({ x: 80, y: 40, width: 1280, height: 820 })
    expect(placed.maximized).toBe(false)
  })

  it('pulls a window that hangs off its display back inside, and shrinks it to fit', () => {
    const state = rememberPlacement(EMPTY_WINDOW_STATE, laptop, {
      bounds: { x: -500, y: 700, width: 2000, height: 800 },
      maximized: false,
    })
    expect(restorePlacement(state, [laptop], limits).bounds).toEqual({ x: 0, y: 100, width: 1440, height: 800 })
  })

  it('fits a small display even below the minimum size', () => {
    const tiny: DisplayInfo = { id: 9, workArea: { x: 0, y: 0, width: 800, height: 600 } }
    expect(restorePlacement(EMPTY_WINDOW_STATE, [tiny], limits).bounds).toEqual({ x: 0, y: 0, width: 800, height: 600 })
  })

  it('knows which display a window is on by its centre', () => {
    expect(displayOf({ x: 1400, y: 10, width: 400, height: 300 }, [laptop, monitor])?.id).toBe(2)
    expect(displayOf({ x: 100, y: 10, width: 400, height: 300 }, [laptop, monitor])?.id).toBe(1)
    expect(displayOf({ x: -5000, y: -5000, width: 400, height: 300 }, [laptop, monitor])?.id).toBe(1)
  })
})
