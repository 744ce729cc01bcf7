/**
 * One copy of the app at a time (two copies must never write the same journal): what the running
 * copy does when a second launch hands over to it. Pure; index.ts applies the answer.
 */
export type SecondInstanceAction =
  /** The window exists: bring it back (un-minimise, show) and focus it. */
  | { kind: 'focus'; restore: boolean; show: boolean }
  /** No window (macOS after closing it, or still starting): open one once the services allow. */
  | { kind: 'open-window' }

export interface MainWindowState {
  exists: boolean
  minimized: boolean
  visible: boolean
}

export function secondInstanceAction(window: MainWindowState): SecondInstanceAction {
  if (!window.exists) return { kind: 'open-window' }
  return { kind: 'focus', restore: window.minimized, show: !window.visible }
}
