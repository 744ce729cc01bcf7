import { defineStore } from 'pinia'
import { reactive, ref } from 'vue'
import { api } from '../api'
import type { AppError, Result } from '../../../shared/result'
import type {
  CardBrand,
  CardDetails,
  CardholderDraft,
  CardIssue,
  CardListPage,
  CardListQuery,
  CopiedCardNumber,
  IdentityImagePreview,
  RevealedCardSecrets,
  StoredCardholder,
} from '../../../shared/domain/cards'
import type { ExportFormat, ExportResult } from '../../../shared/domain/export'
import { callApi, callWithDroppedFile } from './call'

export type CardListFilters = Omit<CardListQuery, 'page' | 'limit'>

/**
 * Cardholders, issued cards and the card list. The card number and CVV are never kept here:
 * `reveal` hands them straight to the caller (the open details drawer) and stores nothing.
 */
export const useCardsStore = defineStore('cards', () => {
  const holders = ref<StoredCardholder[]>([])
  const issues = ref<CardIssue[]>([])
  const listPage = ref<CardListPage | null>(null)
  const listLoading = ref(false)
  const listError = ref<AppError | null>(null)
  const filters = reactive<CardListFilters>({})
  const paging = reactive({ page: 1, limit: 10 })
  const inFlight = reactive(new Set<string>())

  // Main reports every change of an issued card (pending -> active); the screen follows.
  api.cards.onIssueChanged((issue) => upsertIssue(issue))

  /** Answers and events can arrive out of order: the later journal state wins. */
  function upsertIssue(issue: CardIssue): void {
    const index = issues.value.findIndex((known) => known.reference === issue.reference)
    if (index === -1) issues.value = [issue, ...issues.value]
    else if (issues.value[index]!.updatedAt <= issue.updatedAt) issues.value.splice(index, 1, issue)
  }

  function isBusy(action: string): boolean {
    return inFlight.has(action)
  }

  async function track<T>(action: string, call: () => Promise<Result<T>>): Promise<Result<T>> {
    inFlight.add(action)
    try {
      return await callApi(call)
    } finally {
      inFlight.delete(action)
    }
  }

  async function loadHolders(): Promise<void> {
    const result = await callApi(() => api.cards.holders())
    if (result.ok) holders.value = result.data
  }

  async function loadIssues(): Promise<void> {
    const result = await callApi(() => api.cards.issues())
    if (!result.ok) return
    const known = new Map(issues.value.map((issue) => [issue.reference, issue]))
    issues.value = result.data.map((issue) => {
      const mine = known.get(issue.reference)
      return mine && mine.updatedAt > issue.updatedAt ? mine : issue
    })
  }

  const chooseIdentityFile = (): Promise<Result<IdentityImagePreview | null>> =>
    track('identity', () => api.cards.chooseIdentityFile())

  const dropIdentityFile = (file: File): Promise<Result<IdentityImagePreview>> =>
    track('identity', () => callWithDroppedFile(file, (dropped) => api.cards.dropIdentityFile(dropped)))

  const discardIdentityFile = (token: string): Promise<Result<null>> =>
    callApi(() => api.cards.discardIdentityFile({ token }))

  async function createCardholder(draft: CardholderDraft, identityToken: string): Promise<Result<StoredCardholder>> {
    const result = await track('createCardholder', () => api.cards.createCardholder({ draft, identityToken }))
    if (result.ok) holders.value = [result.data, ...holders.value.filter((h) => h.reference !== result.data.reference)]
    return result
  }

  async function issue(holderReference: string, brand: CardBrand): Promise<Result<CardIssue>> {
    const result = await track('issue', () => api.cards.issue({ holderReference, brand }))
    // A refused issue is journaled too: show it in the list of issues.
    if (result.ok) upsertIssue(result.data)
    else await loadIssues()
    return result
  }

  async function sendAgain(reference: string): Promise<Result<CardIssue>> {
    const result = await track(`sendAgain:${reference}`, () => api.cards.sendAgain({ reference }))
    if (result.ok) upsertIssue(result.data)
    return result
  }

  async function verifyIssue(reference: string): Promise<Result<CardIssue>> {
    const result = await track(`verify:${reference}`, () => api.cards.verifyIssue({ reference }))
    if (result.ok) upsertIssue(result.data)
    return result
  }

  async function loadList(): Promise<void> {
    listLoading.value = true
    try {
      const query: CardListQuery = { ...filters, page: paging.page, limit: paging.limit }
      const result = await callApi(() => api.cards.list(query))
      listError.value = result.ok ? null : result.error
      if (result.ok) listPage.value = result.data
    } finally {
      listLoading.value = false
    }
  }

  function setFilters(next: CardListFilters): Promise<void> {
    filters.status = next.status
    filters.type = next.type
    filters.startDate = next.startDate
    filters.endDate = next.endDate
    paging.page = 1
    return loadList()
  }

  function goToPage(page: number): Promise<void> {
    paging.page = page
    return loadList()
  }

  function setPageSize(limit: number): Promise<void> {
    paging.limit = limit
    paging.page = 1
    return loadList()
  }

  const details = (reference: string): Promise<Result<CardDetails>> => callApi(() => api.cards.details({ reference }))
  /** Not stored: the caller keeps the answer only while its drawer is open. */
  const reveal = (reference: string): Promise<Result<RevealedCardSecrets>> =>
    track(`reveal:${reference}`, () => api.cards.reveal({ reference }))
  /** Tells main the number is hidden again, so it forgets it too. */
  const hide = (reference: string): Promise<Result<null>> => callApi(() => api.cards.hide({ reference }))
  const exportList = (format: ExportFormat): Promise<Result<ExportResult>> =>
    track(`export:${format}`, () => api.cards.export({ format, filters: { ...filters } }))
  const copyNumber = (reference: string): Promise<Result<CopiedCardNumber>> =>
    track(`copy:${reference}`, () => api.cards.copyNumber({ reference }))

  return {
    holders,
    issues,
    listPage,
    listLoading,
    listError,
    filters,
    paging,
    isBusy,
    loadHolders,
    loadIssues,
    chooseIdentityFile,
    dropIdentityFile,
    discardIdentityFile,
    createCardholder,
    issue,
    sendAgain,
    verifyIssue,
    loadList,
    setFilters,
    goToPage,
    setPageSize,
    details,
    reveal,
    hide,
    copyNumber,
    exportList,
  }
})
