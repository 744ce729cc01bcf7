import { defineStore } from 'pinia'
import { ref } from 'vue'
import { api } from '../api'
import type { DocumentOutput, DocumentResult, PrintInBrowser } from '../../../shared/domain/documents'
import type { Result } from '../../../shared/result'
import { callApi } from './call'

/**
 * PDF documents made in main: payment advices and run summaries, saved or printed. In the installed
 * app main shows the system print dialog itself; in a browser (the bridge) main hands the PDF over
 * and it opens in a tab, where the browser's own print takes over. If the browser blocks the tab, a
 * link to it is offered instead (`blockedTab`).
 */
export const useDocumentsStore = defineStore('documents', () => {
  const busy = ref<string | null>(null)
  /** A PDF the browser would not open in a tab by itself: the screen offers a link to it. */
  const blockedTab = ref<{ title: string; url: string } | null>(null)

  /** The ZIP of advices being made, by run: how many advices are done of how many. */
  const advicesProgress = ref<Record<string, { done: number; total: number }>>({})

  api.documents.onPrintInBrowser((document) => openInTab(document))
  api.documents.onAdvicesProgress(({ runId, progress }) => {
    const next = { ...advicesProgress.value }
    if (progress) next[runId] = progress
    else delete next[runId]
    advicesProgress.value = next
  })

  function openInTab(document: PrintInBrowser): void {
    const bytes = Uint8Array.from(atob(document.base64), (char) => char.charCodeAt(0))
    const url = URL.createObjectURL(new Blob([bytes], { type: 'application/pdf' }))
    const opened = window.open(url, '_blank')
    blockedTab.value = opened ? null : { title: document.title, url }
  }

  async function make(action: string, call: () => Promise<Result<DocumentResult>>): Promise<Result<DocumentResult>> {
    busy.value = action
    try {
      return await callApi(call)
    } finally {
      busy.value = null
    }
  }

  return {
    busy,
    blockedTab,
    payoutAdvice: (reference: string, output: DocumentOutput) =>
      make(`advice:${reference}:${output}`, () => api.documents.payoutAdvice({ reference, output })),
    runRowAdvice: (runId: string, index: number, output: DocumentOutput) =>
      make(`row:${runId}:${index}:${output}`, () => api.documents.runRowAdvice({ runId, index, output })),
    runSummary: (runId: string, output: DocumentOutput) =>
      make(`summary:${runId}:${output}`, () => api.documents.runSummary({ runId, output })),
    runAdvices: (runId: string) => make(`advices:${runId}`, () => api.documents.runAdvices({ runId })),
    advicesProgress,
    /** Stops the ZIP of advices being made for a run (nothing is saved). */
    cancelAdvices: (runId: string) => callApi(() => api.documents.cancelAdvices({ runId })),
  }
})
