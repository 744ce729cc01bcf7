import { defineStore } from 'pinia'
import { ref } from 'vue'
import { api } from '../api'
import type { AppError, Result } from '../../../shared/result'
import type { AppSettings, ThemePreference } from '../../../shared/domain/settings'
import { callApi } from './call'

/** App preferences kept by main, so they survive restarts. */
export const useSettingsStore = defineStore('settings', () => {
  const theme = ref<ThemePreference>('system')
  const loading = ref(false)
  const saving = ref(false)
  const lastError = ref<AppError | null>(null)

  async function load(): Promise<Result<AppSettings>> {
    loading.value = true
    try {
      const result = await callApi(() => api.settings.get())
      if (result.ok) theme.value = result.data.theme
      lastError.value = result.ok ? null : result.error
      return result
    } finally {
      loading.value = false
    }
  }

  /** Applies the theme at once, and goes back to the previous one if main could not store it. */
  async function setTheme(next: ThemePreference): Promise<Result<AppSettings>> {
    const previous = theme.value
    theme.value = next
    saving.value = true
    try {
      const result = await callApi(() => api.settings.update({ theme: next }))
      if (result.ok) {
        theme.value = result.data.theme
        lastError.value = null
      } else {
        theme.value = previous
        lastError.value = result.error
      }
      return result
    } finally {
      saving.value = false
    }
  }

  return { theme, loading, saving, lastError, load, setTheme }
})
