import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import { onTransfer } from '../api'
import type { TransferProgress } from '../api'

/**
 * Files on their way to main (a sheet streamed to the app in a browser): the one in progress,
 * for the shell to show. Nothing appears in the installed app, where files are read where they are.
 */
export const useTransfersStore = defineStore('transfers', () => {
  const current = ref<TransferProgress | null>(null)
  const percent = computed(() =>
    current.value && current.value.total > 0
      ? Math.min(100, Math.round((current.value.sent / current.value.total) * 100))
      : 0,
  )
  let stop: (() => void) | null = null

  function listen(): () => void {
    stop ??= onTransfer((progress) => {
      if (progress.done) {
        if (current.value?.id === progress.id) current.value = null
      } else {
        current.value = progress
      }
    })
    return () => {
      stop?.()
      stop = null
    }
  }

  return { current, percent, listen }
})
