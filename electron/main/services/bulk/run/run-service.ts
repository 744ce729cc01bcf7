/**
 * Bulk runs: one imported sheet taken through name checks, review, submission in batches and
 * monitoring, durably. Every run lives in its folder (run-store.ts); long steps report progress
 * as events and survive a quit or crash: `resumeAll()` at start carries each run on from where it
 * was, verifying with the service before sending anything that may already have been sent.
 */
import { randomBytes } from 'node:crypto'
import type { BulkCurrency, BulkField, BulkImportResult } from '../../../../../shared/domain/bulk'
import type { RunProgress, RunRow, RunSummary, RunView } from '../../../../../shared/domain/bulk-run'
import { rowProblems, runIdOf } from '../../../../../shared/domain/bulk-run'
import { isFinal } from '../../../../../shared/domain/journal'
import { normaliseAmount } from '../../../../../shared/bulk/amount'
import { formatMinorUnits, toMinorUnits } from '../../../../../shared/money'
import { AppFailure } from '../../../../../shared/result'
import { namesMatch } from '../../../../../shared/rules/common'
import type { DesktopNotice } from '../../../adapters/desktop'
import type { BankResolution } from '../../../../../shared/domain/lookups'
import type { BulkEndpoints, BulkPayoutRequest } from '../../api/bulk'
import type { LookupEndpoints } from '../../api/lookups'
import { resolutionCountryOf } from '../../api/lookups'
import { ApiFailure } from '../../api/payments-client'
import type { Checkpoints } from '../../checkpoints'
import type { Journal } from '../../journal/journal'
import { InFlight } from '../../sending/in-flight'
import { checkpointHooks } from '../../sending/send-policy'
import { allRowsFinal, applyBatchOutcome, followItems, isSettled, readBatchItems } from './batch-items'
import { batchIntent, settleBatch } from './batch-sender'
import { runPool } from './pool'
import { importedRun, retryRun } from './run-creation'
import { batchBody, countRows, isSendable, planBatches, totalsOf } from './run-rows'
import type { RunState, RunStore, StoredRun } from './run-store'
import { sha256Hex } from './run-store'

export interface RunServiceEvents {
  runChanged(summary: RunSummary): void
  rowsChanged(runId: string, rows: RunRow[]): void
  progress(runId: string, progress: RunProgress | null): void
}

export interface RunServiceOptions {
  store: RunStore
  journal: Journal
  /** The profile's identity, its bulk endpoints and the account-name check (spec 4.1). */
  apiFor(profileId?: string): Promise<{
    profileId: string
    mode: RunState['mode']
    bulk: BulkEndpoints
    lookups: Pick<LookupEndpoints, 'resolveBank'>
  }>
  events: RunServiceEvents
  notify(notice: DesktopNotice): void
  now(): Date
  log?: { warn(message: string, detail?: unknown): void; error(message: string, detail?: unknown): void }
  resolveConcurrency?: number
  submitConcurrency?: number
  pollMs?: number
  /** How long rows may wait in memory before rows.json is written again. */
  saveRowsEveryMs?: number
  sleep?: (ms: number) => Promise<void>
  /** Crash tests' kill points (services/checkpoints.ts). */
  checkpoint?: Checkpoints
  /**
   * Called for each batch after its intent is journaled and before its request leaves (team mode
   * claims the batch here, services/team/team-release.ts). Throwing stops sending; what it
   * journals on the batch (a verification) is what the sender acts on.
   */
  beforeBatchLeaves?(runId: string, batchReference: string): Promise<void>
}

interface LiveRun {
  state: RunState
  rows: RunRow[]
  progress: RunProgress | null
  /** The long step running now, if any; one at a time per run. */
  task: Promise<void> | null
  cancelled: boolean
  rowsDirty: boolean
  saveTimer: ReturnType<typeof setTimeout> | null
  stateTimer: ReturnType<typeof setTimeout> | null
  pendingRowEvents: Map<number, RunRow>
}

export interface CreateRunInput {
  result: BulkImportResult
  bytes: Uint8Array
  currency: BulkCurrency
  profileId?: string
  merchantBearsCost?: boolean
  description?: string
  /** The id of a run this desk materialises from the team's copy (default: a new id). */
  id?: string
}

/** How often a long step reports its progress (and the rows it changed) to the screen. */
const PROGRESS_EVERY_MS = 100

const ROW_FIELDS: readonly BulkField[] = [
  'reference',
  'amount',
  'bank_code',
  'account_number',
  'customer_name',
  'customer_email',
  'narration',
]

export class RunService {
  private readonly runs = new Map<string, LiveRun>()
  private closed = false
  /** Retry runs being created, by the run they retry: a second Retry joins the first. */
  private readonly retrying = new InFlight<RunView>()
  private readonly sleep: (ms: number) => Promise<void>
  private readonly resolveConcurrency: number
  private readonly submitConcurrency: number
  private readonly pollMs: number
  /** Monitoring's pauses between polls: close() ends them at once (a quit does not wait out a poll). */
  private readonly pauses = new Set<() => void>()

  constructor(private readonly options: RunServiceOptions) {
    this.sleep = options.sleep ?? ((ms) => new Promise((done) => setTimeout(done, ms)))
    this.resolveConcurrency = options.resolveConcurrency ?? 8
    this.submitConcurrency = options.submitConcurrency ?? 4
    this.pollMs = options.pollMs ?? 2000
  }

  /** Loads every run from disk and carries on the ones that were working when the app stopped. */
  async resumeAll(): Promise<void> {
    const stored = await this.options.store.loadAll((runId, error) =>
      this.options.log?.warn(`Bulk run ${runId} could not be read; it was left untouched`, error),
    )
    for (const { state, rows } of stored) {
      if (this.runs.has(state.id)) continue
      const run = this.live(state, rows)
      markBatchReferences(run)
      this.runs.set(state.id, run)
    }
    for (const run of this.runs.values()) {
      if (run.state.stage === 'attention' && run.state.batches.length > 0) run.state.stage = 'submitting'
      if (run.state.stage === 'submitting' || run.state.stage === 'monitoring')
        this.startTask(run, () => this.send(run))
      else if (run.state.stage === 'resolving' && run.state.resolving) this.startTask(run, () => this.resolve(run))
    }
  }

  list(): RunSummary[] {
    return [...this.runs.values()]
      .map((run) => this.summary(run))
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
  }

  view(runId: string): RunView {
    const run = this.get(runId)
    const { state } = run
    return {
      ...this.summary(run),
      fileSha256: state.fileSha256,
      sheet: state.sheet,
      header: state.header,
      merchantBearsCost: state.merchantBearsCost,
      description: state.description,
      batches: state.batches,
      totals: totalsOf(state, run.rows),
      progress: run.progress,
      ...(state.message ? { message: state.message } : {}),
      ...(this.retryRunOf(runId) ? { retriedBy: this.retryRunOf(runId)!.state.id } : {}),
      ...(state.imported ? { imported: state.imported } : {}),
    }
  }

  /** The run that retries `runId`'s failed rows, if one was made. */
  private retryRunOf(runId: string): LiveRun | undefined {
    for (const run of this.runs.values()) if (run.state.retryOf === runId) return run
    return undefined
  }

  rows(runId: string): RunRow[] {
    return this.get(runId).rows
  }

  stateOf(runId: string): RunState {
    return this.get(runId).state
  }

  originalFile(runId: string): Promise<Uint8Array> {
    return this.options.store.readFile(runId, this.get(runId).state.storedFile)
  }

  /** The report, kept in the run's folder next to the rows it was made from. */
  async keepReport(runId: string, csv: string): Promise<void> {
    await this.options.store.writeFile(runId, 'report.csv', csv)
  }

  async create(input: CreateRunInput): Promise<RunView> {
    const { profileId, mode } = await this.options.apiFor(input.profileId)
    const fileSha256 = sha256Hex(input.bytes)
    const createdAt = this.options.now().toISOString()
    // A run released from the team keeps the team's id, so every desk plans the same batch references.
    if (input.id && this.runs.has(input.id))
      throw new AppFailure('conflict', `Run ${input.id} is already on this desk.`)
    const id = input.id ?? this.newRunId(createdAt, fileSha256)
    const made = importedRun({ id, createdAt, profileId, mode, fileSha256 }, input)
    return this.store(made, input.bytes, 'import:run-written')
  }

  /** Writes a new run whole (RunStore.createRun) and shows it. */
  private async store(
    made: StoredRun,
    bytes: Uint8Array,
    checkpoint: 'import:run-written' | 'retry:run-written',
  ): Promise<RunView> {
    const { state } = made
    await this.options.store.createRun(
      made,
      { bytes, mapping: { file: state.fileName, sheet: state.sheet, header: state.header } },
      () => this.options.checkpoint?.(checkpoint, state.id),
    )
    const run = this.live(state, made.rows)
    this.runs.set(state.id, run)
    this.changed(run)
    return this.view(state.id)
  }

  /** Name checks for every row not yet checked, with bounded concurrency; Cancel stops them. */
  async startResolution(runId: string): Promise<RunView> {
    const run = this.get(runId)
    if (run.state.stage !== 'resolving' && run.state.stage !== 'review')
      throw new AppFailure('conflict', 'Names can be checked only before the run is sent.')
    // Asked again while the checks run (a double click): they are under way.
    if (run.state.stage === 'resolving' && run.state.resolving) return this.view(runId)
    if (run.task) throw new AppFailure('conflict', 'This run is already working.')
    run.state.stage = 'resolving'
    run.state.resolving = true
    await this.saveState(run)
    this.startTask(run, () => this.resolve(run))
    return this.view(runId)
  }

  async cancel(runId: string): Promise<RunView> {
    const run = this.get(runId)
    if (run.state.stage !== 'resolving') throw new AppFailure('conflict', 'Only name checks can be cancelled.')
    run.cancelled = true
    await run.task
    return this.view(runId)
  }

  /** Leaves the name checks (finished or not) for the review. Rows never checked are warned about. */
  async toReview(runId: string): Promise<RunView> {
    const run = this.get(runId)
    if (run.task) throw new AppFailure('conflict', 'Wait for the name checks to finish, or cancel them.')
    if (run.state.stage !== 'resolving' && run.state.stage !== 'review')
      throw new AppFailure('conflict', 'This run is past its review.')
    run.state.stage = 'review'
    await this.saveState(run)
    return this.view(runId)
  }

  async editRow(runId: string, index: number, field: BulkField, value: string): Promise<RunRow> {
    const run = this.get(runId)
    this.assertEditable(run)
    const row = this.rowOf(run, index)
    if (!ROW_FIELDS.includes(field)) throw new AppFailure('bad_request', `Unknown field ${field}.`)
    const text = value.trim()
    // Amounts are kept as the importer normalises them ("1,000.5" -> "1000.50") when they parse.
    row.item = { ...row.item, [field]: field === 'amount' ? (normaliseAmount(text, run.state.currency) ?? text) : text }
    const accountChanged = field === 'bank_code' || field === 'account_number' || field === 'customer_name'
    if (accountChanged) {
      row.resolution = 'unchecked'
      delete row.resolvedName
      delete row.resolutionMessage
    }
    this.revalidate(run, row)
    if (accountChanged && row.errors.length === 0) await this.resolveRow(run, row)
    this.rowChanged(run, row)
    await this.saveRowsNow(run)
    this.changed(run)
    return row
  }

  async setExcluded(runId: string, indexes: number[], excluded: boolean): Promise<RunView> {
    const run = this.get(runId)
    this.assertEditable(run)
    for (const index of indexes) {
      const row = this.rowOf(run, index)
      row.excluded = excluded
      this.rowChanged(run, row)
    }
    await this.saveRowsNow(run)
    this.changed(run)
    return this.view(runId)
  }

  async setOptions(runId: string, options: { merchantBearsCost?: boolean; description?: string }): Promise<RunView> {
    const run = this.get(runId)
    this.assertEditable(run)
    if (options.merchantBearsCost !== undefined) run.state.merchantBearsCost = options.merchantBearsCost
    if (options.description !== undefined) run.state.description = options.description.trim()
    await this.saveState(run)
    return this.view(runId)
  }

  /**
   * Plans the batches and sends them. The plan is on disk before the first intent is journaled,
   * so a crash at any point resumes the same batches with the same references.
   */
  async submit(runId: string, confirm: { total?: string } = {}): Promise<RunView> {
    const run = this.get(runId)
    // Sent already (a second click, or a click after a restart): sending is under way or done.
    if (run.state.stage !== 'review' && run.state.batches.length > 0) return this.view(runId)
    if (run.state.stage !== 'review') throw new AppFailure('conflict', 'Review the run before sending it.')
    // Name checks that have just finished (the run is in review) are still closing: wait for them.
    if (run.task) await run.task
    // Sent meanwhile (the other click of a double click): that is this send.
    if (run.state.batches.length > 0) return this.view(runId)
    if (run.task || run.state.stage !== 'review') throw new AppFailure('conflict', 'This run is already working.')
    const sendable = run.rows.filter(isSendable)
    if (sendable.length === 0)
      throw new AppFailure('bad_request', 'No row can be sent: fix or include some rows first.')
    if (sendable.length === 1)
      throw new AppFailure(
        'bad_request',
        'A bulk payout needs at least two rows. Send this single row from the Payouts screen instead.',
      )
    const totals = totalsOf(run.state, run.rows)
    if (run.state.mode === 'live') {
      const typed = confirm.total?.replace(/,/g, '').trim() ?? ''
      let matches = false
      try {
        matches = typed !== '' && toMinorUnits(typed) === toMinorUnits(totals.amount)
      } catch {
        matches = false
      }
      if (!matches)
        throw new AppFailure(
          'bad_request',
          `Type the total ${totals.amount} ${totals.currency} exactly to confirm a live run.`,
        )
    }
    run.state.batches = planBatches(run.state.id, run.rows)
    markBatchReferences(run)
    run.state.stage = 'submitting'
    delete run.state.message
    // The plan is in state.json (rows.json only repeats each row's batch reference, and is marked
    // again from the plan on load): both written together, before the first intent is journaled.
    await Promise.all([this.saveRowsNow(run), this.saveState(run)])
    this.startTask(run, () => this.send(run))
    return this.view(runId)
  }

  /** Asks the service again about batches that could not be confirmed, and carries on. */
  async recheck(runId: string): Promise<RunView> {
    const run = this.get(runId)
    // Asked again once the check has started (a double click): it is under way, or done.
    if (run.state.stage === 'submitting' || run.state.stage === 'monitoring' || run.state.stage === 'completed')
      return this.view(runId)
    if (run.state.stage !== 'attention' || run.task)
      throw new AppFailure('conflict', 'Nothing in this run waits for a check.')
    run.state.stage = 'submitting'
    delete run.state.message
    await this.saveState(run)
    this.startTask(run, () => this.send(run))
    return this.view(runId)
  }

  /**
   * A new run of only the failed rows, with references derived from the originals, written whole
   * with its `retryOf`. A run is retried once: asked again (a second click, a double click, after
   * a restart), the retry run that exists is the answer.
   */
  async retryFailed(runId: string): Promise<RunView> {
    const run = this.get(runId)
    const existing = this.retryRunOf(runId)
    if (existing) return this.view(existing.state.id)
    return this.retrying.run(runId, async () => {
      if (!run.rows.some((r) => r.status === 'failed'))
        throw new AppFailure('bad_request', 'No row of this run has failed.')
      const bytes = await this.options.store.readFile(runId, run.state.storedFile)
      const createdAt = this.options.now().toISOString()
      const made = retryRun({ id: this.newRunId(createdAt, run.state.fileSha256), createdAt }, run)
      return this.store(made, bytes, 'retry:run-written')
    })
  }

  /** Waits for every run's long step to end (tests, quitting). */
  async idle(): Promise<void> {
    await Promise.all([...this.runs.values()].map((r) => r.task))
  }

  async close(): Promise<void> {
    this.closed = true
    for (const run of this.runs.values()) run.cancelled = true
    for (const wake of [...this.pauses]) wake()
    await Promise.all([...this.runs.values()].map((r) => r.task?.catch(() => undefined)))
    for (const run of this.runs.values()) {
      if (run.rowsDirty) await this.saveRowsNow(run)
      if (run.stateTimer) await this.saveState(run)
    }
  }

  // ---- steps

  private async resolve(run: LiveRun): Promise<void> {
    const todo = run.rows.filter((r) => !r.excluded && r.resolution === 'unchecked' && r.errors.length === 0)
    const started = Date.now()
    let done = 0
    this.setProgress(run, { step: 'resolving', done, total: todo.length, etaSeconds: null })
    // One profile look-up (key from the keychain, one client) for the whole step, not one per row;
    // and one request per distinct account: rows paying the same account share its answer.
    const { lookups } = await this.options.apiFor(run.state.profileId)
    const answers = new Map<string, Promise<BankResolution>>()
    const resolveOnce = (bank: string, account: string): Promise<BankResolution> => {
      const key = `${bank}\u0000${account}`
      let answer = answers.get(key)
      if (!answer) {
        answer = lookups.resolveBank({ bank, account, currency: resolutionCountryOf(run.state.currency) })
        answers.set(key, answer)
      }
      return answer
    }
    let lastProgressAt = 0
    await runPool(
      todo,
      this.resolveConcurrency,
      async (row) => {
        await this.resolveRow(run, row, resolveOnce)
        this.rowChanged(run, row)
        this.scheduleRowsSave(run)
        done++
        // Progress (and the rows changed with it) goes out at most every PROGRESS_EVERY_MS, not per row.
        const now = Date.now()
        if (now - lastProgressAt < PROGRESS_EVERY_MS && done < todo.length) return
        lastProgressAt = now
        const elapsed = (now - started) / 1000
        this.setProgress(run, {
          step: 'resolving',
          done,
          total: todo.length,
          etaSeconds: done > 0 ? Math.round((elapsed / done) * (todo.length - done)) : null,
        })
      },
      () => run.cancelled,
    )
    const finished = !run.cancelled
    run.state.resolving = false
    if (finished) run.state.stage = 'review'
    this.setProgress(run, null)
    await Promise.all([this.saveRowsNow(run), this.saveState(run)])
  }

  private async resolveRow(
    run: LiveRun,
    row: RunRow,
    resolveBank?: (bank: string, account: string) => Promise<BankResolution>,
  ): Promise<void> {
    try {
      let resolved: BankResolution
      if (resolveBank) resolved = await resolveBank(row.item.bank_code, row.item.account_number)
      else {
        const { lookups } = await this.options.apiFor(run.state.profileId)
        resolved = await lookups.resolveBank({
          bank: row.item.bank_code,
          account: row.item.account_number,
          currency: resolutionCountryOf(run.state.currency),
        })
      }
      row.resolvedName = resolved.accountName
      row.resolution = namesMatch(resolved.accountName, row.item.customer_name) ? 'matched' : 'mismatch'
      delete row.resolutionMessage
    } catch (error) {
      if (error instanceof ApiFailure && error.code === 'rejected') {
        row.resolution = 'unresolvable'
        row.resolutionMessage = error.message
      } else {
        // Unreachable or unreadable: the row stays unchecked, a later check can do it.
        row.resolution = 'unchecked'
        row.resolutionMessage = `Name check failed: ${(error as Error).message}`
      }
    }
    this.revalidate(run, row)
  }

  /** Submission then monitoring, until every item is final. */
  private async send(run: LiveRun): Promise<void> {
    if (run.state.stage === 'submitting') {
      await this.sendBatches(run)
      // The batches as answered (a cache of the journal, where every answer is by now) and the rows.
      await Promise.all([this.saveState(run), this.saveRowsNow(run)])
      if (this.closed) return
      const open = run.state.batches.filter((b) => !isSettled(b))
      if (open.length > 0) {
        run.state.stage = 'attention'
        run.state.message = `${open.length} batch(es) could not be confirmed yet: ${open[0]?.message ?? ''}`.trim()
        await this.saveState(run)
        return
      }
      run.state.stage = 'monitoring'
      await this.saveState(run)
    }
    if (run.state.stage === 'monitoring') await this.monitor(run)
  }

  private async sendBatches(run: LiveRun): Promise<void> {
    const { journal } = this.options
    const { bulk } = await this.options.apiFor(run.state.profileId)
    const who = { profileId: run.state.profileId, mode: run.state.mode, runId: run.state.id }
    const todo = run.state.batches.filter((b) => !isSettled(b))
    const total = run.state.batches.length
    const started = Date.now()
    let done = total - todo.length
    this.setProgress(run, { step: 'submitting', done, total, etaSeconds: null })

    // A pool of `concurrency` lanes. Intents are journaled ahead of the lanes with one fsync per
    // chunk (appendMany): up to four rounds of batches ahead, topped up once fewer than two rounds
    // are left, so the next intents are on disk while the current batches are in flight (an fsync
    // slowed by a busy disk has two rounds to finish); a lane sends only a batch whose intent is
    // on disk. A lane does not wait for the fsync of an acceptance to send its next batch (that
    // answer is re-verifiable by reference); all of them are on disk before the run leaves
    // 'submitting'.
    const fresh = new Set<string>()
    const ahead = 4 * this.submitConcurrency
    const intentsOnDisk: Array<Promise<void>> = []
    let requested = 0
    const journalUpTo = (end: number): void => {
      end = Math.min(end, todo.length)
      if (end <= requested) return
      const intents = todo
        .slice(requested, end)
        .filter((b) => !journal.has(b.reference))
        .map((b) => {
          fresh.add(b.reference)
          return { intent: batchIntent(batchBody(run.state, b, run.rows), who) }
        })
      const written = intents.length > 0 ? journal.appendMany(intents) : Promise.resolve()
      // Awaited by the lane that sends each batch; one that never runs (closing) must not leave an unhandled rejection.
      written.catch(() => undefined)
      for (let k = requested; k < end; k++) intentsOnDisk[k] = written
      requested = end
    }
    const acceptedRecords: Array<Promise<unknown>> = []
    let recordFailure: unknown = null
    const deferAcceptedRecord = (written: Promise<unknown>): void => {
      acceptedRecords.push(
        written.catch((error: unknown) => {
          recordFailure ??= error
        }),
      )
    }
    await runPool(
      todo,
      this.submitConcurrency,
      async (batch, index) => {
        if (requested - index <= 2 * this.submitConcurrency) journalUpTo(index + ahead)
        await intentsOnDisk[index]
        if (recordFailure) throw recordFailure
        await this.options.beforeBatchLeaves?.(run.state.id, batch.reference)
        batch.state = 'sending'
        batch.attempts++
        // A batch journaled before is resent exactly as journaled.
        const body = journal.get(batch.reference)!.request as unknown as BulkPayoutRequest
        const outcome = await settleBatch(journal, bulk, body, fresh.has(batch.reference), {
          maxAttempts: 6,
          backoffMs: Math.min(this.pollMs, 1000),
          sleep: this.sleep,
          deferAcceptedRecord,
          hooks: checkpointHooks(this.options.checkpoint),
        })
        applyBatchOutcome(run.rows, batch, outcome, (row) => this.rowChanged(run, row))
        done++
        const elapsed = (Date.now() - started) / 1000
        const sent = done - (total - todo.length)
        this.setProgress(run, {
          step: 'submitting',
          done,
          total,
          etaSeconds: sent > 0 ? Math.round((elapsed / sent) * (total - done)) : null,
        })
        this.scheduleStateSave(run)
      },
      () => this.closed,
    )
    await Promise.all(acceptedRecords)
    if (recordFailure) throw recordFailure
    this.setProgress(run, null)
  }

  private async monitor(run: LiveRun): Promise<void> {
    const { bulk } = await this.options.apiFor(run.state.profileId)
    const { journal } = this.options
    const items = run.state.batches.reduce((n, b) => n + b.rows.length, 0)
    const changed = (row: RunRow): void => this.rowChanged(run, row)
    while (!this.closed) {
      const open = run.state.batches.filter((b) => b.state === 'accepted' || b.state === 'items_exist')
      const finals: Array<{ reference: string; event: Parameters<Journal['append']>[1] }> = []
      await runPool(open, this.resolveConcurrency, async (batch) => {
        try {
          if (batch.state === 'items_exist') {
            // The service holds these rows' payouts under their own references: follow each.
            await followItems(bulk, batch, run.rows, { concurrency: this.resolveConcurrency, changed })
            if (allRowsFinal(batch, run.rows)) batch.state = 'complete'
            return
          }
          const record = await bulk.batch(batch.reference)
          const pending = record.pendingTransactions + record.processingTransactions
          await readBatchItems(bulk, batch, run.rows, {
            settled: pending === 0,
            concurrency: this.resolveConcurrency,
            changed,
          })
          // Final only when the counters show nothing open and every item has its final status,
          // whatever the batch's own status says ("complete" with items still paying is not).
          if (pending === 0 && allRowsFinal(batch, run.rows)) {
            batch.state = 'complete'
            if (!batch.totalChargeable) batch.totalChargeable = this.chargeableFromRows(run, batch)
            const movement = journal.get(batch.reference)
            if (movement && !isFinal(movement.state))
              finals.push({
                reference: batch.reference,
                event: {
                  state: 'success',
                  note: `Batch complete: ${record.successfulTransactions} paid, ${record.failedTransactions} failed`,
                  data: { successful: record.successfulTransactions, failed: record.failedTransactions },
                },
              })
          }
        } catch (error) {
          this.options.log?.warn(`Polling batch ${batch.reference} failed; asking again later`, error)
        }
      })
      if (finals.length > 0) await journal.appendMany(finals)
      const counts = countRows(run.rows)
      this.setProgress(run, {
        step: 'monitoring',
        done: counts.success + counts.failed,
        total: items,
        etaSeconds: null,
      })
      this.flushRowEvents(run)
      this.scheduleRowsSave(run)
      if (run.state.batches.every((b) => b.state === 'complete' || b.state === 'refused')) break
      this.changed(run)
      await this.pause(this.pollMs)
    }
    if (this.closed) return
    run.state.stage = 'completed'
    this.setProgress(run, null)
    await this.saveRowsNow(run)
    await this.saveState(run)
    const counts = countRows(run.rows)
    this.options.notify({
      kind: counts.failed === 0 ? 'success' : 'failure',
      title: counts.failed === 0 ? 'Bulk run paid' : 'Bulk run finished with failures',
      body:
        counts.failed === 0
          ? `${counts.success} payouts of ${run.state.fileName} succeeded.`
          : `${counts.success} paid, ${counts.failed} failed in ${run.state.fileName}. Open the run to retry the failed rows.`,
    })
  }

  private chargeableFromRows(run: LiveRun, batch: RunState['batches'][number]): string | undefined {
    let sum = 0n
    for (const i of batch.rows) {
      const row = run.rows[i]!
      sum += toMinorUnits(row.item.amount)
      if (run.state.merchantBearsCost) {
        if (row.fee === undefined) return undefined
        sum += toMinorUnits(row.fee)
      }
    }
    return formatMinorUnits(sum)
  }

  // ---- plumbing

  /** Waits `ms` (through the injected sleep), or less if the service closes meanwhile. */
  private pause(ms: number): Promise<void> {
    if (this.closed) return Promise.resolve()
    return new Promise((resolve) => {
      let timer: ReturnType<typeof setTimeout> | null = null
      const wake = (): void => {
        if (timer) clearTimeout(timer)
        this.pauses.delete(wake)
        resolve()
      }
      this.pauses.add(wake)
      if (this.options.sleep) void this.options.sleep(ms).then(wake)
      else timer = setTimeout(wake, ms)
    })
  }

  private live(state: RunState, rows: RunRow[]): LiveRun {
    return {
      state,
      rows,
      progress: null,
      task: null,
      cancelled: false,
      rowsDirty: false,
      saveTimer: null,
      stateTimer: null,
      pendingRowEvents: new Map(),
    }
  }

  private get(runId: string): LiveRun {
    const run = this.runs.get(runId)
    if (!run) throw new AppFailure('not_found', `There is no bulk run ${runId}.`)
    return run
  }

  private rowOf(run: LiveRun, index: number): RunRow {
    const row = run.rows[index]
    if (!row) throw new AppFailure('not_found', `Run ${run.state.id} has no row ${index}.`)
    return row
  }

  private assertEditable(run: LiveRun): void {
    if (run.state.stage !== 'resolving' && run.state.stage !== 'review')
      throw new AppFailure('conflict', 'Rows cannot change once the run has been sent.')
  }

  private revalidate(run: LiveRun, row: RunRow): void {
    const problems = rowProblems(row.item, run.state.currency)
    if (row.resolution === 'unresolvable')
      problems.push({
        row: row.item.row,
        column: 'account_number',
        code: 'unresolvable',
        message: `The account could not be resolved: ${row.resolutionMessage ?? 'unknown account'}`,
      })
    // Warnings the importer found stay; the name check's own warning is recomputed.
    const warnings = row.warnings.filter((w) => w.code !== 'name_mismatch' && w.code !== 'name_unchecked')
    if (row.resolution === 'mismatch')
      warnings.push({
        row: row.item.row,
        column: 'customer_name',
        code: 'name_mismatch',
        message: `The bank has this account as "${row.resolvedName ?? ''}", not "${row.item.customer_name}".`,
      })
    // References repeated in the sheet are the importer's finding; kept unless the reference changed.
    const kept = row.errors.filter((e) => e.code === 'reference_duplicate')
    row.errors = [...problems, ...kept]
    row.warnings = warnings
  }

  private startTask(run: LiveRun, work: () => Promise<void>): void {
    run.cancelled = false
    run.task = work()
      .catch(async (error: unknown) => {
        this.options.log?.error(`Bulk run ${run.state.id} stopped`, error)
        run.state.stage = run.state.stage === 'resolving' ? 'resolving' : 'attention'
        run.state.message = `Stopped: ${(error as Error).message}`
        run.state.resolving = false
        await this.saveState(run).catch(() => undefined)
      })
      .finally(() => {
        run.task = null
        this.flushRowEvents(run)
        this.changed(run)
      })
  }

  private setProgress(run: LiveRun, progress: RunProgress | null): void {
    run.progress = progress
    this.options.events.progress(run.state.id, progress)
    this.flushRowEvents(run)
  }

  private rowChanged(run: LiveRun, row: RunRow): void {
    run.pendingRowEvents.set(row.index, row)
    run.rowsDirty = true
  }

  private flushRowEvents(run: LiveRun): void {
    if (run.pendingRowEvents.size === 0) return
    const rows = [...run.pendingRowEvents.values()]
    run.pendingRowEvents.clear()
    this.options.events.rowsChanged(run.state.id, rows)
  }

  private changed(run: LiveRun): void {
    this.options.events.runChanged(this.summary(run))
  }

  private summary(run: LiveRun): RunSummary {
    const { state } = run
    return {
      id: state.id,
      createdAt: state.createdAt,
      updatedAt: state.updatedAt,
      fileName: state.fileName,
      profileId: state.profileId,
      mode: state.mode,
      currency: state.currency,
      stage: state.stage,
      rows: run.rows.length,
      ...(state.retryOf ? { retryOf: state.retryOf } : {}),
      counts: countRows(run.rows),
    }
  }

  private async saveState(run: LiveRun): Promise<void> {
    if (run.stateTimer) {
      clearTimeout(run.stateTimer)
      run.stateTimer = null
    }
    run.state.updatedAt = this.options.now().toISOString()
    await this.options.store.saveState(run.state)
    this.changed(run)
  }

  /** Batch states in state.json are a cache of the journal: written at most once a second while sending. */
  private scheduleStateSave(run: LiveRun): void {
    if (run.stateTimer) return
    run.stateTimer = setTimeout(() => {
      run.stateTimer = null
      void this.saveState(run).catch((error: unknown) => this.options.log?.error('Saving the run failed', error))
    }, 1000)
  }

  /**
   * rows.json again, soon. A large run waits longer between saves (10 s at 100,000 rows): each save
   * serialises every row, and what it keeps (name checks, statuses) can be asked for again.
   */
  private scheduleRowsSave(run: LiveRun): void {
    if (run.saveTimer) return
    run.saveTimer = setTimeout(
      () => {
        run.saveTimer = null
        void this.saveRowsNow(run).catch((error: unknown) => this.options.log?.error('Saving rows failed', error))
      },
      Math.max(this.options.saveRowsEveryMs ?? 1000, run.rows.length / 10),
    )
  }

  private async saveRowsNow(run: LiveRun): Promise<void> {
    if (run.saveTimer) {
      clearTimeout(run.saveTimer)
      run.saveTimer = null
    }
    run.rowsDirty = false
    this.flushRowEvents(run)
    await this.options.store.saveRows(run.state.id, run.rows)
  }

  private newRunId(createdAt: string, sha256: string): string {
    for (let n = 0; ; n++) {
      const id = runIdOf(createdAt, sha256, randomBytes(2).toString('hex'), n)
      if (!this.runs.has(id)) return id
    }
  }
}

/** Each planned row carries its batch's reference (the plan in state.json is the source). */
function markBatchReferences(run: LiveRun): void {
  for (const batch of run.state.batches)
    for (const i of batch.rows) {
      const row = run.rows[i]
      if (row) row.batchReference = batch.reference
    }
}
