export const THEME_PREFERENCES = ['system', 'light', 'dark'] as const
export type ThemePreference = (typeof THEME_PREFERENCES)[number]

export interface AppSettings {
  theme: ThemePreference
}

export interface AppInfo {
  name: string
  version: string
  /** How this renderer reaches main: the Electron preload, or the loopback test bridge. */
  transport: 'electron' | 'bridge'
}
