// Size: the store of the bulk:* channels: each action a thin call whose answer updates the open run
// and what the renderer holds of its rows (run-rows.ts: codes and pages, patched by events;
// run-panels.ts: what the panels list, as main says); the import steps share it because their last step opens the run they made.
import { defineStore } from 'pinia'
import type { ConfirmationInput } from '../../../shared/payees/confirmations'
import { computed, markRaw, ref, watch } from 'vue'
import { api } from '../api'
import type { Unsubscribe } from '../../../shared/ipc/contract'
import type { BulkOpened } from '../../../shared/ipc/channels/bulk'
import type {
  BankChoiceByKey,
  BulkBankReview,
  BulkColumnMapping,
  BulkCurrency,
  BulkField,
  RunWideValues,
} from '../../../shared/domain/bulk'
import type { RowQuestion, RunProgress, RunRow, RunSummary, RunView } from '../../../shared/domain/bulk-run'
import type { AppError, Result } from '../../../shared/result'
import type { CellEdit, CellEditKind, RunChangesView, RunEditAnswer } from '../../../shared/domain/bulk-changes'
import { callApi, callWithDroppedFile } from './call'
import { useProfilesStore } from './profiles'
import { MODE_NAMES } from '../../../shared/words/profile-modes'
import { MAX_ROUNDS, RowsChangedWhileReading } from './rows-read-again'
import { useRunRows } from './run-rows'
import { useRunPanels } from './run-panels'
import type { FindRows, FoundRows } from '../../../shared/bulk/row-codes'

/** Whether the run's screen shows its panels: while it can be edited, and in its name checks and review (BulkRunScreen). */
function showsPanels(run: RunView | null | undefined): boolean {
  return Boolean(run && (run.can.edit || run.stage === 'review' || run.stage === 'resolving'))
}

/**
 * Bulk runs as the Bulk screen shows them. Main keeps every run; this store asks for the state on
 * mount and follows main's events (run changes, row changes, progress) from then on.
 */
export const useBulkStore = defineStore('bulk', () => {
  const runs = ref<RunSummary[]>([])
  const current = ref<RunView | null>(null)
  /**
   * What the renderer holds of the current run's rows (decision 154): every row's code and the
   * pages the grid shows, read from main as it scrolls; never reactive row by row. `rowsVersion`
   * counts the changes, so whatever shows them recomputes. What the panels list (the review, the
   * questions, the holds, the rows left out) main says (`bulk:panels`, decision 171).
   */
  const runRows = useRunRows(async (offset, limit) => {
    const runId = currentId.value
    if (!runId) return null
    const page = await callApi(() => api.bulk.rows({ runId, offset, limit }))
    if (!page.ok) lastError.value = page.error
    return page.ok && runId === currentId.value ? page.data : null
  })
  const rowsVersion = runRows.version
  const runPanels = useRunPanels(
    async (runId) => {
      const answer = await callApi(() => api.bulk.panels({ runId }))
      return answer.ok ? answer.data : null
    },
    // The panels show while a run can be edited, and in its name checks and review (BulkRunScreen).
    () => showsPanels(current.value),
  )
  /** The current run's changes (latest first) and what can be undone and redone. */
  const changes = ref<RunChangesView | null>(null)
  const progress = ref<RunProgress | null>(null)
  const opened = ref<BulkOpened | null>(null)
  /** The Banks step of the import under way: the bank names of the sheet to confirm or choose. */
  const bankReview = ref<BulkBankReview | null>(null)
  const lastError = ref<AppError | null>(null)
  /**
   * What the desk did on its own and says so: a run opened under another profile switched the desk
   * to the run's profile first (decision 49), or a run was closed because the profile changed.
   */
  const notice = ref<string | null>(null)
  const busy = ref<string | null>(null)
  /** The repeated run a sheet being opened will refresh (decision 130), instead of making a new run. */
  const refreshTarget = ref<string | null>(null)
  let unsubscribers: Unsubscribe[] = []
  /** Rows main told changed while the run's rows were being read: read again after (decision 147). */
  const changedWhileReading = new RowsChangedWhileReading()

  const currentId = computed(() => current.value?.id ?? null)

  // The desk switched to another profile (in Settings, or another window) while a run was open:
  // the run is closed rather than shown under another profile's banner (decision 49).
  const profiles = useProfilesStore()
  watch(
    () => profiles.list?.activeId,
    (activeId) => {
      const run = current.value
      if (!run || !activeId || run.profileId === activeId) return
      closeRun()
      const active = profiles.activeProfile
      notice.value = `The run of ${run.fileName} was closed: it belongs to another profile, and the desk now works with "${active?.name ?? activeId}". Open it again to switch back to its profile.`
    },
  )

  async function track<T>(action: string, call: () => Promise<Result<T>>): Promise<Result<T>> {
    busy.value = action
    try {
      const result = await callApi(call)
      lastError.value = result.ok ? null : result.error
      return result
    } finally {
      busy.value = null
    }
  }

  function init(): Promise<void> {
    if (unsubscribers.length === 0) {
      unsubscribers = [
        api.bulk.onRunChanged((summary) => {
          const index = runs.value.findIndex((r) => r.id === summary.id)
          if (index >= 0) runs.value[index] = summary
          else runs.value.unshift(summary)
          if (summary.id === currentId.value) void refreshView()
        }),
        api.bulk.onRowsChanged(({ runId, indexes, codes: changedCodes }) => {
          changedWhileReading.note(runId, indexes)
          if (runId !== currentId.value) return
          runRows.told(indexes, changedCodes)
          runPanels.changed()
        }),
        api.bulk.onProgress(({ runId, progress: next }) => {
          if (runId === currentId.value) progress.value = next
        }),
      ]
    }
    return loadRuns()
  }

  /** Rows read again whole, in place by index: their codes and the pages held; the panels read again. */
  function putRows(changed: readonly RunRow[]): void {
    runRows.put(changed)
    runPanels.changed()
  }

  function dispose(): void {
    for (const unsubscribe of unsubscribers) unsubscribe()
    unsubscribers = []
  }

  async function loadRuns(): Promise<void> {
    const result = await track('runs', () => api.bulk.runs())
    if (result.ok) runs.value = result.data
  }

  let viewRequest = 0
  async function refreshView(): Promise<void> {
    const id = currentId.value
    if (!id) return
    const ticket = ++viewRequest
    const result = await callApi(() => api.bulk.run({ runId: id }))
    if (!result.ok || ticket !== viewRequest || id !== currentId.value) return
    // A run that moved to another stage (its review opens) shows with its panels read after the
    // move: a read made before the last names came back would offer to acknowledge too few. A run
    // that moved where it shows none (sent) reads none: at 100,000 rows a read is some 50 ms of
    // main's time while it sends (decision 181).
    if (result.data.stage !== current.value?.stage && showsPanels(result.data)) {
      await runPanels.now()
      if (ticket !== viewRequest || id !== currentId.value) return
    }
    current.value = result.data
    progress.value = result.data.progress
    // The review's fees and readiness are the view's: the panels say them as the view does.
    runPanels.changed()
  }

  /** Counts the opening of runs: a page that comes back for a run no longer open is dropped. */
  let openTicket = 0

  /**
   * A run is shown under its own profile's banner (decision 49): when the desk works with another
   * profile, it switches to the run's first and says so. False when it could not.
   */
  async function underItsProfile(view: RunView): Promise<boolean> {
    if (!profiles.list) await profiles.load()
    if (profiles.list?.activeId === view.profileId) return true
    const owner = profiles.profiles.find((profile) => profile.id === view.profileId)
    if (!owner) {
      lastError.value = {
        code: 'not_found',
        message: `This run belongs to the profile "${view.profileId}" (${MODE_NAMES[view.mode]}), which is no longer on this desk: it cannot be opened under another profile's banner.`,
      }
      return false
    }
    // The run on screen goes first: the banner never shows one profile over another profile's run.
    current.value = null
    const switched = await profiles.activate(owner.id)
    if (!switched.ok) {
      lastError.value = switched.error
      return false
    }
    notice.value = `Switched to the profile "${owner.name}" (${MODE_NAMES[owner.mode]}): this run belongs to it.`
    return true
  }

  /**
   * The row "Show it" leads to from the Reconciliation screen (decision 141): the grid shows only
   * the row with this reference until "Show all rows"; another run opened clears it.
   */
  const shownRow = ref<string | null>(null)

  /** Opens the run and shows only its row with this reference. */
  async function showRow(runId: string, reference: string): Promise<void> {
    await openRun(runId)
    if (current.value?.id === runId) shownRow.value = reference
  }

  /** Opens a run with its rows' digest; the grid reads the pages it shows. */
  async function openRun(runId: string): Promise<void> {
    const ticket = ++openTicket
    notice.value = null
    shownRow.value = null
    changedWhileReading.begin(runId)
    const view = await track('open-run', () => api.bulk.run({ runId }))
    if (!view.ok || ticket !== openTicket) return stopReading(ticket)
    if (!(await underItsProfile(view.data)) || ticket !== openTicket) return stopReading(ticket)
    // Rows changed meanwhile are read again below, and the panels with them.
    const [digest, panels] = await Promise.all([
      track('rows', () => api.bulk.rowsDigest({ runId })),
      callApi(() => api.bulk.panels({ runId })),
    ])
    if (!panels.ok) lastError.value = panels.error
    if (!digest.ok || !panels.ok || ticket !== openTicket) return stopReading(ticket)
    current.value = view.data
    progress.value = view.data.progress
    runRows.take(digest.data)
    runPanels.follow(runId, digest.data.codes.length, panels.data)
    opened.value = null
    changes.value = null
    void loadChanges()
    void readChangedAgain(runId, ticket)
  }

  /** An open that did not finish notes no more changes (a later open begins its own). */
  function stopReading(ticket: number): void {
    if (ticket === openTicket) changedWhileReading.end()
  }

  /** The rows told changed while the pages were read, read again (decision 147). */
  async function readChangedAgain(runId: string, ticket: number): Promise<void> {
    for (let round = 0; round < MAX_ROUNDS && ticket === openTicket; round++) {
      const spans = changedWhileReading.take()
      if (spans.length === 0) break
      for (const span of spans) {
        const page = await callApi(() => api.bulk.rows({ runId, ...span }))
        if (ticket !== openTicket) return
        if (!page.ok) {
          lastError.value = page.error
          break
        }
        putRows(page.data)
      }
    }
    if (ticket === openTicket) changedWhileReading.end()
  }

  function closeRun(): void {
    openTicket++
    changedWhileReading.end()
    // What was said about this run is not left for the next one.
    lastError.value = null
    notice.value = null
    current.value = null
    changes.value = null
    runRows.clear()
    runPanels.follow(null, 0, null)
    progress.value = null
  }

  async function openFile(): Promise<void> {
    notice.value = null
    const result = await track('open', () => api.bulk.open())
    if (result.ok && result.data) opened.value = result.data
  }

  async function dropFile(file: File): Promise<void> {
    notice.value = null
    const result = await track('open', () => callWithDroppedFile(file, (dropped) => api.bulk.drop({ file: dropped })))
    if (result.ok) opened.value = result.data
  }

  async function importSheet(choice: {
    sheet: string
    headerRow: number
    mapping: BulkColumnMapping
    currency: BulkCurrency
    runWide?: RunWideValues
  }): Promise<boolean> {
    const file = opened.value
    if (!file) return false
    const target = refreshTarget.value
    if (target) {
      const refreshed = await track('import', () =>
        api.bulk.refreshRepeat({ runId: target, importId: file.importId, ...choice, mapping: [...choice.mapping] }),
      )
      if (!refreshed.ok) return false
      refreshTarget.value = null
      await openRun(target)
      return true
    }
    const result = await track('import', () =>
      api.bulk.import({ importId: file.importId, ...choice, mapping: [...choice.mapping] }),
    )
    if (!result.ok) return false
    if (result.data.kind === 'banks') {
      bankReview.value = result.data.review
      return true
    }
    await openRun(result.data.run.id)
    await loadRuns()
    return true
  }

  /** The banks the user confirmed or chose in the Banks step: the run is created with them. */
  async function confirmBanks(choices: BankChoiceByKey[]): Promise<boolean> {
    const review = bankReview.value
    if (!review) return false
    const result = await track('confirm-banks', () => api.bulk.confirmBanks({ importId: review.importId, choices }))
    if (!result.ok) return false
    bankReview.value = null
    await openRun(result.data.id)
    await loadRuns()
    return true
  }

  /** From the Banks step back to the columns (the file stays open; importing again reads it again). */
  function backToColumns(): void {
    bankReview.value = null
  }

  function cancelImport(): void {
    opened.value = null
    lastError.value = null
    bankReview.value = null
    // A refresh given up: back to the run it was for.
    const target = refreshTarget.value
    refreshTarget.value = null
    if (target) void openRun(target)
  }

  /**
   * "Repeat this run" (decision 130): a new draft with the same rows under new references, opened;
   * a second click opens the draft made by the first.
   */
  async function repeatRun(): Promise<void> {
    const id = currentId.value
    if (!id) return
    const result = await track('repeat', () => api.bulk.repeat({ runId: id }))
    if (result.ok) {
      await openRun(result.data.id)
      await loadRuns()
    }
  }

  /** "Refresh from a new sheet": a sheet opened, read with the import steps, then matched to this repeat's rows by payee. */
  async function startRefresh(): Promise<void> {
    const id = currentId.value
    if (!id) return
    notice.value = null
    const result = await track('open', () => api.bulk.open())
    if (!result.ok || !result.data) return
    refreshTarget.value = id
    closeRun()
    opened.value = result.data
  }

  /** The active profile's variance percentage for repeats (Settings, Repeat runs). */
  const variancePercent = () => callApi(() => api.bulk.variancePercent())
  const setVariancePercent = (percent: string) => callApi(() => api.bulk.setVariancePercent({ percent }))

  const acknowledgeVariance = (ids: string[]) =>
    act('acknowledge-variance', (runId) => api.bulk.acknowledgeVariance({ runId, ids }))

  /** Calls a run action and takes the view it answers with. */
  async function act(action: string, call: (runId: string) => Promise<Result<RunView>>): Promise<boolean> {
    const id = currentId.value
    if (!id) return false
    const result = await track(action, () => call(id))
    if (result.ok) {
      current.value = result.data
      progress.value = result.data.progress
    }
    return result.ok
  }

  const resolve = () => act('resolve', (runId) => api.bulk.resolve({ runId }))
  const cancel = () => act('cancel', (runId) => api.bulk.cancel({ runId }))
  const review = () => act('review', (runId) => api.bulk.review({ runId }))
  const recheck = () => act('recheck', (runId) => api.bulk.recheck({ runId }))
  const setOptions = (options: { merchantBearsCost?: boolean; description?: string }) =>
    act('options', (runId) => api.bulk.setOptions({ runId, ...options }))
  const acknowledgeNames = (indexes: number[]) =>
    act('acknowledge', (runId) => api.bulk.acknowledgeNames({ runId, indexes }))
  /** A question of these rows answered (decision 57): the account is right, the second payment is meant. */
  const answerQuestion = (indexes: number[], question: RowQuestion) =>
    act('answer', (runId) => api.bulk.answerQuestion({ runId, indexes, question }))
  /** A held row's changed or shared account confirmed (decision 124): how, recorded with who and when by main. */
  const confirmPayee = (index: number, confirmation: ConfirmationInput) =>
    act('confirm', (runId) => api.bulk.confirmPayee({ runId, index, ...confirmation }))
  const submit = (confirmTotal?: string) =>
    act('submit', (runId) => api.bulk.submit(confirmTotal === undefined ? { runId } : { runId, confirmTotal }))

  async function exclude(indexes: number[], excluded: boolean): Promise<void> {
    const id = currentId.value
    if (!id) return
    const result = await track('exclude', () => api.bulk.exclude({ runId: id, indexes, excluded }))
    if (result.ok) current.value = result.data
    await loadChanges()
  }

  /** The run's changes for the Changes list and the Undo and Redo buttons. */
  async function loadChanges(): Promise<void> {
    const id = currentId.value
    if (!id) return
    const result = await callApi(() => api.bulk.changes({ runId: id }))
    if (result.ok && id === currentId.value) changes.value = result.data
  }

  /** Takes an edit's answer: its rows in place, the counts, the changes. */
  async function edited(id: string, result: Result<RunEditAnswer>): Promise<boolean> {
    if (!result.ok || id !== currentId.value) return false
    putRows(result.data.rows)
    if (result.data.change) await Promise.all([refreshView(), loadChanges()])
    return true
  }

  /** Cells typed, pasted, filled down or replaced in the grid: one change, one undo. */
  async function editCells(kind: CellEditKind, edits: CellEdit[]): Promise<boolean> {
    const id = currentId.value
    if (!id || edits.length === 0) return false
    return edited(id, await track('edit', () => api.bulk.editCells({ runId: id, kind, edits })))
  }

  const editRow = (index: number, field: BulkField, value: string) => editCells('edit', [{ index, field, value }])

  async function undo(): Promise<boolean> {
    const id = currentId.value
    if (!id) return false
    return edited(id, await track('undo', () => api.bulk.undo({ runId: id })))
  }

  async function redo(): Promise<boolean> {
    const id = currentId.value
    if (!id) return false
    return edited(id, await track('redo', () => api.bulk.redo({ runId: id })))
  }

  /** Looks across every row of the open run, in main (which holds them); null when it could not. */
  async function findRows(find: FindRows): Promise<FoundRows | null> {
    const id = currentId.value
    if (!id) return null
    const result = await callApi(() => api.bulk.findRows({ runId: id, find }))
    if (!result.ok) lastError.value = result.error
    return result.ok && id === currentId.value ? result.data : null
  }

  /** Deletes a run of which nothing was sent. */
  async function deleteRun(runId: string): Promise<boolean> {
    const result = await track('delete', () => api.bulk.delete({ runId }))
    if (result.ok) runs.value = runs.value.filter((r) => r.id !== runId)
    return result.ok
  }

  /** Hides a run with anything sent from the list, or shows it again. */
  async function archiveRun(runId: string, archived: boolean): Promise<boolean> {
    const result = await track('archive', () => api.bulk.archive({ runId, archived }))
    if (result.ok) {
      const index = runs.value.findIndex((r) => r.id === runId)
      if (index >= 0) runs.value[index] = result.data
    }
    return result.ok
  }

  /** Saves the payout template; the path it went to, or null when the user cancelled. */
  async function saveTemplate(format: 'xlsx' | 'csv'): Promise<string | null> {
    const result = await track('template', () => api.bulk.saveTemplate({ format }))
    return result.ok ? result.data.path : null
  }

  /**
   * Prepares what of the sheet is unpaid in a new run: its failed rows, and, when asked, those left
   * out by hand and those not sent because of errors.
   */
  async function retryFailed(asked: { leftOutByHand?: boolean; withErrors?: boolean } = {}): Promise<void> {
    const id = currentId.value
    if (!id) return
    const result = await track('retry', () =>
      api.bulk.retryFailed({
        runId: id,
        ...(asked.leftOutByHand ? { leftOutByHand: true } : {}),
        ...(asked.withErrors ? { withErrors: true } : {}),
      }),
    )
    if (result.ok) {
      await openRun(result.data.id)
      await loadRuns()
    }
  }

  async function exportReport(format: 'xlsx' | 'csv'): Promise<string | null> {
    const id = currentId.value
    if (!id) return null
    const result = await track('export', () => api.bulk.exportReport({ runId: id, format }))
    return result.ok ? result.data.path : null
  }

  async function exportEvidence(): Promise<string | null> {
    const id = currentId.value
    if (!id) return null
    const result = await track('evidence', () => api.bulk.exportEvidence({ runId: id }))
    return result.ok ? result.data.path : null
  }

  return {
    runs,
    current,
    /** Every row's code, at its index (shared/bulk/row-codes.ts). */
    codes: runRows.codes,
    /** What the open run's panels list, as main says (decision 171); null until read. */
    panels: runPanels.panels,
    /** Settles once the panels are read as main last told a change (tests wait for it). */
    panelsSettled: runPanels.settled,
    /** The row at an index, when a page the grid shows holds it. */
    rowAt: runRows.row,
    /** The pages of the open run's rows held, read ahead of the grid's window. */
    rowPages: markRaw(runRows.pages),
    rowsVersion,
    /** Counts the pages of rows come in (the grid redraws). */
    pagesVersion: runRows.pagesVersion,
    findRows,
    changes,
    progress,
    opened,
    bankReview,
    refreshTarget,
    lastError,
    notice,
    busy,
    shownRow,
    showRow,
    init,
    dispose,
    loadRuns,
    openRun,
    closeRun,
    openFile,
    dropFile,
    importSheet,
    confirmBanks,
    backToColumns,
    cancelImport,
    resolve,
    cancel,
    review,
    recheck,
    setOptions,
    acknowledgeNames,
    answerQuestion,
    confirmPayee,
    submit,
    exclude,
    editRow,
    editCells,
    undo,
    redo,
    loadChanges,
    deleteRun,
    archiveRun,
    saveTemplate,
    retryFailed,
    repeatRun,
    startRefresh,
    acknowledgeVariance,
    variancePercent,
    setVariancePercent,
    exportReport,
    exportEvidence,
  }
})
