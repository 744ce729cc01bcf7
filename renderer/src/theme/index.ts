import { shallowRef } from 'vue'
import type { GlobalTheme } from 'naive-ui'

/** naive-ui's dark theme once its chunk has loaded; null until then. */
export const darkThemeLoaded = shallowRef<GlobalTheme | null>(null)

let loading: Promise<GlobalTheme> | null = null

/** Loads the dark theme's chunk (once). A failure is retried on the next call. */
export function loadDarkTheme(): Promise<GlobalTheme> {
  loading ??= import('./dark').then(
    ({ darkTheme }) => (darkThemeLoaded.value = darkTheme),
    (error: unknown) => {
      loading = null
      throw error
    },
  )
  return loading
}

/** Whether the OS asks for dark, read once at start (useOsTheme follows it afterwards). */
export function osPrefersDark(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-color-scheme: dark)').matches
}
