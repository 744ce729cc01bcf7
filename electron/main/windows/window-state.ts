/**
 * The main window's size, position and maximised state, remembered per display. Pure: the Electron
 * side (main-window.ts) hands in the displays it sees and saves what `rememberState` returns.
 *
 * On open, the window goes back where it was on the display it was last on, if that display still
 * exists; otherwise onto another display it has been on before, otherwise centred on the primary
 * display. Whatever was saved, the result always lies inside an existing display's work area.
 */
import { z } from 'zod'

export interface Rectangle {
  x: number
  y: number
  width: number
  height: number
}

/** What the window manager tells us of one display. */
export interface DisplayInfo {
  id: number
  workArea: Rectangle
}

export interface WindowPlacement {
  bounds: Rectangle
  maximized: boolean
}

const rectangle = z.object({
  x: z.number().int(),
  y: z.number().int(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
})

const placement = z.object({ bounds: rectangle, maximized: z.boolean() })

/** The saved file (userData/window-state.json): one placement per display id, and the last one used. */
export const windowStateSchema = z.object({
  lastDisplayId: z.number().int().nullable(),
  byDisplay: z.record(z.string(), placement),
})
export type WindowState = z.infer<typeof windowStateSchema>

export const EMPTY_WINDOW_STATE: WindowState = { lastDisplayId: null, byDisplay: {} }

export interface WindowSizeLimits {
  width: number
  height: number
  minWidth: number
  minHeight: number
}

/** Where to open the window: a placement that is always on one of `displays` (the first is primary). */
export function restorePlacement(
  state: WindowState,
  displays: readonly DisplayInfo[],
  limits: WindowSizeLimits,
): WindowPlacement {
  const primary = displays[0]
  if (!primary) return { bounds: { x: 0, y: 0, width: limits.width, height: limits.height }, maximized: false }
  const candidates = [
    ...(state.lastDisplayId === null ? [] : [state.lastDisplayId]),
    ...Object.keys(state.byDisplay).map(Number),
  ]
  for (const id of candidates) {
    const display = displays.find((candidate) => candidate.id === id)
    const saved = state.byDisplay[String(id)]
    if (display && saved) return { bounds: fitInto(saved.bounds, display.workArea, limits), maximized: saved.maximized }
  }
  return { bounds: centreIn(primary.workArea, limits), maximized: false }
}

/** The state to save after the window moved, resized or was maximised on `display`. */
export function rememberPlacement(state: WindowState, display: DisplayInfo, current: WindowPlacement): WindowState {
  return {
    lastDisplayId: display.id,
    byDisplay: { ...state.byDisplay, [String(display.id)]: current },
  }
}

/** The display a window belongs to: the one its centre lies on, else the one it overlaps most. */
export function displayOf(bounds: Rectangle, displays: readonly DisplayInfo[]): DisplayInfo | undefined {
  const centre = { x: bounds.x + bounds.width / 2, y: bounds.y + bounds.height / 2 }
  const containing = displays.find((display) => contains(display.workArea, centre))
  if (containing) return containing
  let best: DisplayInfo | undefined
  let bestArea = 0
  for (const display of displays) {
    const area = overlapArea(bounds, display.workArea)
    if (area > bestArea) {
      best = display
      bestArea = area
    }
  }
  return best ?? displays[0]
}

function fitInto(bounds: Rectangle, area: Rectangle, limits: WindowSizeLimits): Rectangle {
  const width = clamp(bounds.width, Math.min(limits.minWidth, area.width), area.width)
  const height = clamp(bounds.height, Math.min(limits.minHeight, area.height), area.height)
  return {
    x: clamp(bounds.x, area.x, area.x + area.width - width),
    y: clamp(bounds.y, area.y, area.y + area.height - height),
    width,
    height,
  }
}

function centreIn(area: Rectangle, limits: WindowSizeLimits): Rectangle {
  const width = Math.min(limits.width, area.width)
  const height = Math.min(limits.height, area.height)
  return {
    x: area.x + Math.round((area.width - width) / 2),
    y: area.y + Math.round((area.height - height) / 2),
    width,
    height,
  }
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(Math.max(value, low), Math.max(low, high))
}

function contains(area: Rectangle, point: { x: number; y: number }): boolean {
  return point.x >= area.x && point.x < area.x + area.width && point.y >= area.y && point.y < area.y + area.height
}

function overlapArea(a: Rectangle, b: Rectangle): number {
  const width = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)
  const height = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y)
  return width > 0 && height > 0 ? width * height : 0
}
