import { defineStore } from 'pinia'
import { ref } from 'vue'
import { api } from '../api'
import type { AppError, Result } from '../../../shared/result'
import type { AboutInfo, DiagnosticsCopied, UpdateStatus } from '../../../shared/domain/diagnostics'
import type { AppNotice } from '../../../shared/domain/notices'
import { callApi } from './call'

/**
 * Help / About, diagnostics for support, updates and the notices main sends. State lives in main;
 * this store asks for it when the dialog opens and follows main's events.
 */
export const useDesktopStore = defineStore('desktop', () => {
  const aboutOpen = ref(false)
  const about = ref<AboutInfo | null>(null)
  const aboutError = ref<AppError | null>(null)
  const copied = ref<DiagnosticsCopied | null>(null)
  const copying = ref(false)
  const copyError = ref<AppError | null>(null)
  const update = ref<UpdateStatus | null>(null)
  const restartRefusal = ref<string | null>(null)

  async function openAbout(): Promise<void> {
    aboutOpen.value = true
    copied.value = null
    copyError.value = null
    restartRefusal.value = null
    const [info, status] = await Promise.all([
      callApi(() => api.desktop.about()),
      callApi(() => api.desktop.updateStatus()),
    ])
    about.value = info.ok ? info.data : null
    aboutError.value = info.ok ? null : info.error
    if (status.ok) update.value = status.data
  }

  async function copyDiagnostics(): Promise<Result<DiagnosticsCopied>> {
    copying.value = true
    try {
      const result = await callApi(() => api.desktop.copyDiagnostics())
      copied.value = result.ok ? result.data : null
      copyError.value = result.ok ? null : result.error
      return result
    } finally {
      copying.value = false
    }
  }

  async function restartToUpdate(): Promise<void> {
    const result = await callApi(() => api.desktop.restartToUpdate())
    restartRefusal.value = result.ok
      ? result.data.restarting
        ? null
        : (result.data.reason ?? null)
      : result.error.message
  }

  /**
   * Follows main: the menu's Help > About, update changes, and notices to show as messages. A
   * desktop notification reaches the page only in a browser (the installed app shows it in the
   * OS): there it is shown as an in-app notice.
   */
  function listen(showNotice: (notice: AppNotice) => void): () => void {
    const stops = [
      api.desktop.onShowAbout(() => void openAbout()),
      api.desktop.onUpdateChanged((status) => {
        update.value = status
      }),
      api.app.onNotice(showNotice),
      api.app.onNotification((notification) =>
        showNotice({
          kind: notification.kind === 'failure' ? 'error' : notification.kind,
          message: `${notification.title}: ${notification.body}`,
        }),
      ),
    ]
    return () => stops.forEach((stop) => stop())
  }

  return {
    aboutOpen,
    about,
    aboutError,
    copied,
    copying,
    copyError,
    update,
    restartRefusal,
    openAbout,
    copyDiagnostics,
    restartToUpdate,
    listen,
  }
})
