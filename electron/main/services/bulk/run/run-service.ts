/**
 * Bulk runs: one imported sheet taken through name checks, review, submission in batches and
 * monitoring, durably. This class is the facade the bulk domain, the documents and the soak use,
 * and the run's stage machine: every stage change goes through the one transition table
 * (stages.ts); each long step is its own module (steps/name-checks.ts, steps/submission.ts,
 * steps/monitoring.ts), run-tasks.ts runs them in the background as the run's one task, and
 * autosave.ts keeps runs on disk and on the screen. Every run lives in its folder (run-store.ts);
 * long steps report progress as events and survive a quit or crash: `resumeAll()` at start
 * carries each run on from where it was, verifying with the service before sending anything that
 * may already have been sent.
 *
 * Size: the one facade of a run's life (every caller goes through it, and the stage table's causes
 * are its methods). What can stand alone lives beside it: the steps and their tasks (run-tasks.ts),
 * the figures (run-figures.ts), the sheet's chain (run-family.ts), the fees (fee-basis.ts), the
 * checks before a Send and the live confirmation (send-checks.ts), a run's content
 * (run-content.ts), edits (run-editing.ts).
 */
import { randomBytes } from 'node:crypto'
import { setImmediate as nextTurn } from 'node:timers/promises'
import { userInfo } from 'node:os'
import type { BulkCurrency, BulkField, BulkImportResult } from '../../../../../shared/domain/bulk'
import type {
  RowQuestion,
  RunAction,
  RunBatch,
  RunContent,
  RunProgress,
  RunRow,
  RunSummary,
  RunView,
} from '../../../../../shared/domain/bulk-run'
import { needsNameAcknowledgement, runIdOf } from '../../../../../shared/domain/bulk-run'
import { isPayoutRowField } from '../../../../../shared/domain/payout-row'
import type { ProfileMode } from '../../../../../shared/domain/profiles'
import { AppFailure } from '../../../../../shared/result'
import type { DesktopNotice } from '../../../adapters/desktop'
import type { Checkpoints } from '../../checkpoints'
import type { Journal } from '../../journal'
import { InFlight } from '../../sending'
import type { FeePayerChoice } from '../../fees'
import type { FeeSeen } from '../../fees'
import { feeBasisOf, runFeesOf } from './fee-basis'
import { assertSendable, assertVarianceAcknowledged, countIsCurrent, countToSend, countToSendNow } from './send-checks'
import { RunAutosave } from './autosave'
import type { LiveRun, RunApiFor, RunLog } from './live-run'
import { liveRun, markBatchReferences } from './live-run'
import { lastBalanceRefusal } from '../../sending'
import { importedRun, retryRun } from './run-creation'
import { chainOf, rowsToPrepare, type PrepareOptions } from './run-family'
import { RunFigures } from './run-figures'
import { contentOfRun, runInputFromContent } from './run-content'
import { planBatches, revalidateRow, totalsOf } from './run-rows'
import type { RunState, RunStore, StoredRun } from './run-store'
import { sha256Hex } from './run-store'
import { moveTo } from './stages'
import { RunTasks } from './run-tasks'
import type { BeforeBatchLeaves } from './steps/submission'
import type {
  CellEdit,
  CellEditKind,
  ChangeGroup,
  RunChangesView,
  RunEditAnswer,
} from '../../../../../shared/domain/bulk-changes'
import { RunEditor } from './run-editing'
import { applyTripwires, flagsByIndex, type RowFlags } from './run-tripwires'
import { holdingTripwires, isHeld, payeeKeyOfRow, rowAccountKey } from '../../../../../shared/bulk/payee-holds'
import type { ConfirmationInput, PayeeConfirmation } from '../../../../../shared/payees/confirmations'
import { describeAccount } from '../../../../../shared/payees/accounts'
import { mappingRecord } from './run-report'
import { removeRunFolder } from './run-removal'
import { assertCan, refusalOf, runActions, type RunFacts } from './run-actions'
import { basename } from 'node:path'
import { readFileOffMain } from '../../files'
import type { LimitGate } from '../../limits'
import { runLimits } from './run-limits'
import { applyRefresh, repeatRun, varianceOf } from './run-repeat'
import { refreshPlan } from '../../../../../shared/bulk/repeat-refresh'
import { DEFAULT_VARIANCE_PERCENT, explainVariance, type RunVariance } from '../../../../../shared/bulk/run-variance'
import { storedFileOf } from './run-creation'

/** Whether the importer flagged a card number in any row (the rows keep it masked, decision 102). */
function heldCardNumbers(rows: readonly RunRow[]): boolean {
  return rows.some((row) => row.errors.some((error) => error.code === 'card_number'))
}

/** The file with its card numbers masked, in the file reader's worker (decisions 100 and 102). */
function maskedOriginal(fileName: string, bytes: Uint8Array): Promise<Uint8Array> {
  return readFileOffMain({ job: 'mask-card-numbers', name: basename(fileName), bytes })
}

export interface RunServiceEvents {
  runChanged(summary: RunSummary): void
  rowsChanged(runId: string, rows: RunRow[]): void
  progress(runId: string, progress: RunProgress | null): void
}

export interface RunServiceOptions {
  store: RunStore
  journal: Journal
  /** The profile's identity, its bulk endpoints and the account-name check (spec 4.1). */
  apiFor: RunApiFor
  events: RunServiceEvents
  notify(notice: DesktopNotice): void
  now(): Date
  log?: RunLog
  resolveConcurrency?: number
  submitConcurrency?: number
  pollMs?: number
  /** How long rows may wait in memory before rows.json is written again. */
  saveRowsEveryMs?: number
  sleep?: (ms: number) => Promise<void>
  /** Crash tests' kill points (services/checkpoints.ts). */
  checkpoint?: Checkpoints
  /** A gate each batch passes just before it leaves (steps/submission.ts); throwing stops sending. */
  beforeBatchLeaves?: BeforeBatchLeaves
  /** Who pays the fees, remembered per profile: the default of a new run, updated by the review's choice. */
  feePayer?: FeePayerChoice
  /** Who acts at this desk (recorded with a name acknowledgement); the OS user by default. */
  actor?: () => string
  /**
   * Asked at start-up of each run that would carry on sending: a text to wait with instead (the run
   * stays in 'attention' showing it, and is carried on later by Check again), or null to resume it now
   * (team runs wait for the team connection: their batches need claims).
   */
  holdOnResume?: (runId: string) => Promise<string | null>
  /** The limits every send passes (decision 127): the run at Send, and each batch before its intent is journaled. */
  limits?: LimitGate
  /** The percentage an amount of a repeat may move by before the variance review lists it, per profile (decision 130). */
  variancePercent?: (profileId: string) => string
  /**
   * Resolves once the run's rows carry the payee checks of its last change (decision 169): Send
   * waits for it, so a row the tripwires hold is never sent because Send came before its check.
   */
  payeesChecked?: (runId: string) => Promise<void>
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
  /** Written already in review (a run materialised from the team's approved copy), as a retry run is. */
  inReview?: boolean
}

/** Rows the payee book's findings are put on in one turn of main's event loop (setTripwires). */
const TRIPWIRE_ROWS_PER_TURN = 500

/** Findings of the payee book indexed by row in one turn (setTripwires). */
const FLAGS_INDEXED_PER_TURN = 20_000

/** No-match names acknowledged in one turn of main's event loop (acknowledgeNames). */
const ACKNOWLEDGED_ROWS_PER_TURN = 5_000

/** Rows an answer frees that are checked with the bank at once; more wait for "Check account names". */
const ANSWERED_CHECKED_AT_ONCE = 20

export class RunService {
  private readonly runs = new Map<string, LiveRun>()
  /** Retry runs being created, by the run they retry: a second Retry joins the first. */
  private readonly retrying = new InFlight<RunView>()
  /** Repeats being made, by the run repeated: a second Repeat joins the first. */
  private readonly repeating = new InFlight<RunView>()
  /** Each repeat's variance review, with what it was read from (varianceOfRun). */
  private readonly variances = new WeakMap<LiveRun, { key: string; variance: RunVariance | null }>()
  private readonly autosave: RunAutosave
  /** Each run's long work in the background: name checks, sending and monitoring (run-tasks.ts). */
  private readonly tasks: RunTasks
  /** Each run's edits, undo and redo (run-editing.ts), made when the run is first changed. */
  private readonly editors = new Map<string, RunEditor>()
  /** Runs deleted since start: a second Delete (a double click) is answered as the first was. */
  private readonly deleted = new Set<string>()
  /** Tallies, sheet status, headline and send readiness, each kept until its rows change (run-figures.ts). */
  private readonly figures = new RunFigures(() => this.runs.values())

  constructor(private readonly options: RunServiceOptions) {
    this.autosave = new RunAutosave({
      store: options.store,
      now: options.now,
      events: options.events,
      summary: (run) => this.summary(run),
      ...(options.log ? { log: options.log } : {}),
      ...(options.saveRowsEveryMs !== undefined ? { saveRowsEveryMs: options.saveRowsEveryMs } : {}),
    })
    const { apiFor, journal, log, resolveConcurrency, submitConcurrency, pollMs, sleep, checkpoint } = options
    this.tasks = new RunTasks({
      apiFor,
      journal,
      autosave: this.autosave,
      announce: (run) => this.announce(run),
      ...(log ? { log } : {}),
      ...(resolveConcurrency !== undefined ? { resolveConcurrency } : {}),
      ...(submitConcurrency !== undefined ? { submitConcurrency } : {}),
      ...(pollMs !== undefined ? { pollMs } : {}),
      ...(sleep ? { sleep } : {}),
      ...(checkpoint ? { checkpoint } : {}),
      ...(options.beforeBatchLeaves ? { beforeBatchLeaves: options.beforeBatchLeaves } : {}),
      ...(options.limits ? { limits: this.limits.admitBatch } : {}),
    })
  }

  /** The limits as they read this desk's runs (run-limits.ts). */
  private readonly limits = runLimits(
    () => this.options.limits,
    (runId) => (runId ? this.runs.get(runId) : undefined),
  )

  /** The payouts of a batch whose rows failed, as its run holds them: the limits do not count them. */
  failedPayouts(runId: string | undefined, batchReference: string): ReadonlySet<string> {
    return this.limits.failedPayouts(runId, batchReference)
  }

  /** Loads every run from disk and carries on the ones that were working when the app stopped. */
  async resumeAll(): Promise<void> {
    const stored = await this.options.store.loadAll((runId, error) =>
      this.options.log?.warn(`Bulk run ${runId} could not be read; it was left untouched`, error),
    )
    for (const { state, rows } of stored) {
      if (this.runs.has(state.id)) continue
      const run = liveRun(state, rows)
      markBatchReferences(run)
      this.runs.set(state.id, run)
      await run.sums.prepare()
    }
    for (const run of this.runs.values()) {
      const { state } = run
      const sending = state.stage === 'submitting' || (state.stage === 'attention' && state.batches.length > 0)
      const wait = sending ? await this.options.holdOnResume?.(state.id) : null
      if (wait) {
        if (state.stage !== 'attention') moveTo(state, 'attention', 'needs_attention')
        state.message = wait
        await this.autosave.saveState(run)
        continue
      }
      if (state.stage === 'attention' && state.batches.length > 0) moveTo(state, 'submitting', 'resume_sending')
      if (state.stage === 'submitting' || state.stage === 'monitoring') {
        moveTo(state, state.stage, 'resume_sending')
        this.tasks.startSending(run)
      } else if (state.stage === 'resolving' && state.resolving) {
        moveTo(run.state, 'resolving', 'resume_checks')
        this.tasks.startNameChecks(run)
      }
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
    const totals = totalsOf(state, run.rows, run.sums.sendable())
    const tally = this.figures.tallyOf(run)
    const retriedBy = this.retryRunOf(runId)?.state.id
    const beforeSending = state.stage === 'resolving' || state.stage === 'review'
    return {
      ...this.summary(run, totals),
      fileSha256: state.fileSha256,
      sheet: state.sheet,
      header: state.header,
      merchantBearsCost: state.merchantBearsCost,
      description: state.description,
      batches: state.batches,
      totals,
      progress: run.progress,
      ...(state.message ? { message: state.message } : {}),
      ...(retriedBy ? { retriedBy } : {}),
      ...(state.imported ? { imported: state.imported } : {}),
      fees: runFeesOf(run, totals.amount, {
        basis: (scope, currency, except) => this.feeBasis(scope, currency, except),
        charged: (of) => this.figures.tallyOf(of).charged,
      }),
      tally,
      sheetStatus: this.figures.sheetOf(run),
      readiness: this.figures.readinessOf(run),
      ...(state.nameCheckError ? { nameCheckError: state.nameCheckError } : {}),
      // Said before the next send of the currency (decision 52): only while the run can still be sent.
      // The limits as Send would find them now (decision 127): the review names a breach before Send.
      limitRefusal: beforeSending ? this.limits.refusalOf(run) : null,
      balanceRefusal: beforeSending
        ? lastBalanceRefusal(
            this.options.journal.list(),
            { profileId: state.profileId, mode: state.mode },
            state.currency,
          )
        : null,
      variance: this.varianceOfRun(run),
    }
  }

  /**
   * Fees the service returned for this profile in its mode and the currency (fee-basis.ts): never
   * another profile's or another mode's (decision 49).
   */
  feeBasis(scope: { profileId: string; mode: ProfileMode }, currency: string, except?: string): FeeSeen[] {
    return feeBasisOf(this.options.journal, this.runs.values(), scope, currency, except)
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

  /**
   * The original file as the run keeps it, for the evidence pack: with any card number masked
   * (decision 102). A run made before kept the file whole; it is masked here, in the file reader.
   */
  async originalFile(runId: string): Promise<Uint8Array> {
    const run = this.get(runId)
    const bytes = await this.options.store.readFile(runId, run.state.storedFile)
    return heldCardNumbers(run.rows) ? maskedOriginal(run.state.fileName, bytes) : bytes
  }

  /** The sheets a repeat was refreshed from, as kept in its folder (decision 130), for the evidence pack. */
  refreshFiles(runId: string): Promise<Array<{ name: string; bytes: Uint8Array }>> {
    const { state } = this.get(runId)
    return Promise.all(
      (state.refreshes ?? []).map(async (refresh) => ({
        name: refresh.storedFile,
        bytes: await this.options.store.readFile(runId, refresh.storedFile),
      })),
    )
  }

  /** The report, kept in the run's folder next to the rows it was made from. */
  async keepReport(runId: string, csv: string): Promise<void> {
    await this.options.store.writeFile(runId, 'report.csv', csv)
  }

  /** What the run pays (run-content.ts): the content team mode hashes, shares and releases. */
  contentOf(runId: string): RunContent {
    const run = this.get(runId)
    return contentOfRun(run.state, run.rows)
  }

  /** The run's batches: as planned once it was sent, else as they would be planned now. */
  plannedBatches(runId: string): RunBatch[] {
    const run = this.get(runId)
    return run.state.batches.length > 0 ? run.state.batches : planBatches(runId, run.rows)
  }

  /**
   * A run written from content under a given id (a team run's approved version on a desk that did
   * not prepare it): its rows as the content has them, in review at once.
   */
  createFromContent(runId: string, label: string, content: RunContent): Promise<RunView> {
    return this.create(runInputFromContent(runId, label, content))
  }

  async create(input: CreateRunInput): Promise<RunView> {
    const { profileId, mode } = await this.options.apiFor(input.profileId)
    const fileSha256 = sha256Hex(input.bytes)
    const createdAt = this.options.now().toISOString()
    // A run released from the team keeps the team's id, so every desk plans the same batch references.
    if (input.id && this.runs.has(input.id))
      throw new AppFailure('conflict', `Run ${input.id} is already on this desk.`)
    const id = input.id ?? this.newRunId(createdAt, fileSha256)
    // A run written again under an id deleted earlier (a team run's copy) is a run again: a later
    // Delete removes it, rather than being answered as the first Delete was.
    this.deleted.delete(id)
    const merchantBearsCost = input.merchantBearsCost ?? (await this.options.feePayer?.recall(profileId))
    const made = await importedRun(
      { id, createdAt, profileId, mode, fileSha256 },
      { ...input, ...(merchantBearsCost !== undefined ? { merchantBearsCost } : {}) },
    )
    // The importer flagged card numbers: the run's folder keeps the file with them masked (decision
    // 102); fileSha256 stays that of the file as handed over.
    const kept = heldCardNumbers(made.rows) ? await maskedOriginal(made.state.fileName, input.bytes) : input.bytes
    return this.store(made, kept, 'import:run-written')
  }

  /** Writes a new run whole (RunStore.createRun) and shows it. */
  private async store(
    made: StoredRun,
    bytes: Uint8Array,
    checkpoint: 'import:run-written' | 'retry:run-written' | null,
  ): Promise<RunView> {
    const { state } = made
    await this.options.store.createRun(made, { bytes, mapping: mappingRecord(state) }, () => {
      if (checkpoint) this.options.checkpoint?.(checkpoint, state.id)
    })
    const run = liveRun(state, made.rows)
    this.runs.set(state.id, run)
    // Its figures summed a slice a turn (row-sums.ts), before the first look at it.
    await run.sums.prepare()
    const view = this.view(state.id)
    this.options.events.runChanged(this.summary(run, view.totals))
    return view
  }

  /** Name checks for every row not yet checked, with bounded concurrency; Cancel stops them. */
  async startResolution(runId: string): Promise<RunView> {
    const run = this.get(runId)
    // Name checks that have just finished (the run is in review) are still writing their last
    // state: wait for them, as Send does, rather than refuse a run the screen shows in review.
    if (run.state.stage === 'review' && run.task) await run.task
    // Asked again while the checks run (a double click): they are under way.
    if (run.state.stage === 'resolving' && run.state.resolving) return this.view(runId)
    assertCan(this.factsOf(run), 'checkNames')
    moveTo(run.state, 'resolving', 'check_names')
    run.state.resolving = true
    await this.autosave.saveState(run)
    this.tasks.startNameChecks(run)
    return this.view(runId)
  }

  async cancel(runId: string): Promise<RunView> {
    const run = this.get(runId)
    // Asked again once the checks have stopped (a double click): nothing is left to cancel.
    if (run.state.stage === 'resolving' && !run.task) return this.view(runId)
    assertCan(this.factsOf(run), 'cancelChecks')
    run.cancelled = true
    await run.task
    return this.view(runId)
  }

  /** Leaves the name checks (finished or not) for the review. Rows never checked are warned about. */
  async toReview(runId: string): Promise<RunView> {
    const run = this.get(runId)
    // Asked again once in review (a double click): it is there.
    if (run.state.stage === 'review' && !run.task) return this.view(runId)
    assertCan(this.factsOf(run), 'review')
    moveTo(run.state, 'review', 'open_review')
    await this.autosave.saveState(run)
    return this.view(runId)
  }

  async editRow(runId: string, index: number, field: BulkField, value: string): Promise<RunRow> {
    const run = this.get(runId)
    this.assertEditable(run)
    this.rowOf(run, index)
    if (!isPayoutRowField(field)) throw new AppFailure('bad_request', `Unknown field ${field}.`)
    await this.editorOf(run).editCells([{ index, field, value }], 'edit')
    return this.rowOf(run, index)
  }

  async setExcluded(runId: string, indexes: number[], excluded: boolean): Promise<RunView> {
    const run = this.get(runId)
    this.assertEditable(run)
    for (const index of indexes) this.rowOf(run, index)
    await this.editorOf(run).setExcluded(indexes, excluded)
    return this.view(runId)
  }

  // ---- changes before sending, with undo and redo (run-editing.ts, run-changes.ts)

  async editCells(runId: string, edits: CellEdit[], kind: CellEditKind): Promise<RunEditAnswer> {
    const run = this.get(runId)
    this.assertEditable(run)
    return this.editorOf(run).editCells(edits, kind)
  }

  async undo(runId: string): Promise<RunEditAnswer> {
    const run = this.get(runId)
    this.assertEditable(run)
    return this.editorOf(run).undo()
  }

  async redo(runId: string): Promise<RunEditAnswer> {
    const run = this.get(runId)
    this.assertEditable(run)
    return this.editorOf(run).redo()
  }

  changes(runId: string, limit: number): Promise<RunChangesView> {
    return this.editorOf(this.get(runId)).view(limit)
  }

  /** Every change of the run, oldest first (report, evidence pack). */
  changeLog(runId: string): Promise<ChangeGroup[]> {
    return this.editorOf(this.get(runId)).log()
  }

  /**
   * The changes made in the runs of this run's sheet before it (the run it retries, and the run
   * that one retried), oldest run first: a retry's report and evidence tell how its rows got so.
   */
  async earlierChanges(runId: string): Promise<Array<{ runId: string; changes: ChangeGroup[] }>> {
    const run = this.get(runId)
    const chain = chainOf(this.runs.values(), run)
    const earlier = chain.slice(0, chain.indexOf(run))
    return Promise.all(earlier.map(async (r) => ({ runId: r.state.id, changes: await this.changeLog(r.state.id) })))
  }

  private editorOf(run: LiveRun): RunEditor {
    let editor = this.editors.get(run.state.id)
    if (!editor) {
      editor = new RunEditor({
        runId: run.state.id,
        rows: run.rows,
        currency: run.state.currency,
        folder: this.options.store.folderOf(run.state.id),
        now: () => this.options.now(),
        revalidate: (row) => revalidateRow(row, run.state.currency),
        resolve: (rows) =>
          this.tasks.checkRowNames(
            run,
            rows.filter((row) => row.errors.length === 0),
          ),
        rowChanged: (row) => this.autosave.rowChanged(run, row),
        changing: () => {
          // A change that waited behind another (a paste still saving) may find the run sent meanwhile.
          this.assertEditable(run)
          run.rowsVersion++
        },
        saved: async () => {
          await this.autosave.saveRowsNow(run)
          this.autosave.changed(run)
        },
      })
      this.editors.set(run.state.id, editor)
    }
    return editor
  }

  // ---- delete and archive (run-removal.ts)

  /** Deletes a run of which nothing was sent: its folder goes. */
  async remove(runId: string): Promise<{ deleted: string }> {
    if (this.deleted.has(runId)) return { deleted: runId }
    const run = this.get(runId)
    assertCan(this.factsOf(run), 'delete')
    this.runs.delete(runId)
    this.editors.delete(runId)
    this.deleted.add(runId)
    if (run.saveTimer) clearTimeout(run.saveTimer)
    if (run.stateTimer) clearTimeout(run.stateTimer)
    if (run.eventTimer) clearTimeout(run.eventTimer)
    run.saveTimer = run.stateTimer = run.eventTimer = null
    await removeRunFolder(this.options.store.folderOf(runId))
    return { deleted: runId }
  }

  /** Hides a run with anything sent from the list (or shows it again); it stays on disk and in the journal. */
  async archive(runId: string, archived: boolean): Promise<RunSummary> {
    const run = this.get(runId)
    // Asked again (a double click): it is so already.
    if (archived === (run.state.archived === true)) return this.summary(run)
    assertCan(this.factsOf(run), archived ? 'archive' : 'unarchive')
    if (archived) run.state.archived = true
    else delete run.state.archived
    await this.autosave.saveState(run)
    return this.summary(run)
  }

  async setOptions(runId: string, options: { merchantBearsCost?: boolean; description?: string }): Promise<RunView> {
    const run = this.get(runId)
    this.assertEditable(run)
    if (options.merchantBearsCost !== undefined) {
      run.state.merchantBearsCost = options.merchantBearsCost
      await this.options.feePayer?.remember(run.state.profileId, options.merchantBearsCost)
    }
    if (options.description !== undefined) run.state.description = options.description.trim()
    await this.autosave.saveState(run)
    return this.view(runId)
  }

  /**
   * The payee book's findings on the run's rows (decision 108, run-tripwires.ts), as a check
   * answered: put on the rows, told to the screen, saved with the rows. A run already sent keeps
   * the flags it was sent with.
   */
  async setTripwires(runId: string, flagged: readonly RowFlags[]): Promise<void> {
    const run = this.get(runId)
    // The findings by row, a slice a turn too (100,000 of them took main some 50 ms in one go).
    const found = new Map<number, RowFlags>()
    for (let start = 0; start < flagged.length; start += FLAGS_INDEXED_PER_TURN) {
      if (start > 0) await nextTurn()
      flagsByIndex(flagged, found, start, Math.min(flagged.length, start + FLAGS_INDEXED_PER_TURN))
    }
    let changed = 0
    // A slice of rows a turn (decision 165: 5,000 rows flagged at once held main 50 to 300 ms),
    // each row told as it changes; a run sent meanwhile keeps the flags it was sent with, as it
    // does when the check answers after Send.
    for (let start = 0; start < run.rows.length; start += TRIPWIRE_ROWS_PER_TURN) {
      if (start > 0) await nextTurn()
      if (run.state.stage !== 'resolving' && run.state.stage !== 'review') break
      for (const row of applyTripwires(run.rows.slice(start, start + TRIPWIRE_ROWS_PER_TURN), found)) {
        this.autosave.rowChanged(run, row)
        changed++
      }
    }
    if (changed === 0) return
    await this.autosave.saveRowsNow(run)
    this.autosave.changed(run)
  }

  /**
   * "I have checked these names": records who acknowledged the no-match names of these rows, and
   * when, in the rows and in the run (its report and evidence pack carry both). Rows whose name
   * needs no acknowledgement are left as they are. Live runs are not sent without it.
   */
  async acknowledgeNames(runId: string, indexes: number[]): Promise<RunView> {
    const run = this.get(runId)
    this.assertEditable(run)
    const rows = indexes.map((index) => this.rowOf(run, index)).filter(needsNameAcknowledgement)
    if (rows.length === 0) return this.view(runId)
    const acknowledgement = { at: this.options.now().toISOString(), by: this.actor() }
    // One record for every row it covers (frozen: a row's is replaced or removed, never changed),
    // not a copy a row: 100,000 rows acknowledged at once held 4 MB of copies.
    const shared = Object.freeze({ ...acknowledgement })
    // A slice of rows a turn (100,000 names acknowledged at once held main some 500 ms). Each row
    // is looked at again as its turn comes: one acknowledged meanwhile (the other click of a
    // double click) or changed is left to that; the run sent meanwhile is left as sent. The
    // record names the rows this acknowledgement covered.
    const covered: RunRow[] = []
    for (let start = 0; start < rows.length; start += ACKNOWLEDGED_ROWS_PER_TURN) {
      if (start > 0) {
        await nextTurn()
        if (refusalOf(this.factsOf(run), 'edit') !== null) break
      }
      for (const row of rows.slice(start, start + ACKNOWLEDGED_ROWS_PER_TURN)) {
        if (!needsNameAcknowledgement(row)) continue
        row.acknowledged = shared
        this.autosave.rowChanged(run, row)
        covered.push(row)
      }
    }
    if (covered.length === 0) return this.view(runId)
    run.state.nameAcknowledgements = [
      ...(run.state.nameAcknowledgements ?? []),
      { ...acknowledgement, rows: covered.map((r) => r.item.row) },
    ]
    await Promise.all([this.autosave.saveRowsNow(run), this.autosave.saveState(run)])
    return this.view(runId)
  }

  /**
   * A question of these rows answered (decision 57): "this account number is right", "pay this
   * second payment too". Who and when are recorded on each row and in the run; rows without the
   * question (or left out) are left as they are. Rows it frees are checked with the bank at once
   * (a few), the others with "Check account names" or before sending.
   */
  async answerQuestion(runId: string, indexes: number[], question: RowQuestion): Promise<RunView> {
    const run = this.get(runId)
    this.assertEditable(run)
    const rows = indexes
      .map((index) => this.rowOf(run, index))
      .filter((row) => !row.excluded && row.errors.some((error) => error.code === question))
    if (rows.length === 0) return this.view(runId)
    const answer = { at: this.options.now().toISOString(), by: this.actor() }
    for (const row of rows) {
      row.answered = { ...row.answered, [question]: { ...answer } }
      revalidateRow(row, run.state.currency)
      this.autosave.rowChanged(run, row)
    }
    run.state.answers = [...(run.state.answers ?? []), { question, ...answer, rows: rows.map((r) => r.item.row) }]
    await Promise.all([this.autosave.saveRowsNow(run), this.autosave.saveState(run)])
    const freed = rows.filter((row) => row.errors.length === 0 && row.resolution === 'unchecked')
    if (freed.length > 0 && freed.length <= ANSWERED_CHECKED_AT_ONCE && !run.task) {
      await this.tasks.checkRowNames(run, freed)
      await this.autosave.saveRowsNow(run)
    }
    return this.view(runId)
  }

  /**
   * A changed or shared account confirmed (decision 124): how (the method, a note), who and when,
   * recorded on the row and in the run, both on disk before this answers, so a crash after it loses
   * nothing; the row is no longer held. The payee book learns it from the run (run-payee-checks.ts)
   * and the batch that pays the row carries it into the journal. A row not held is refused; asked
   * again for a row confirmed already (a double click), the run is answered as it is.
   */
  async confirmPayee(
    runId: string,
    index: number,
    input: ConfirmationInput,
    /** Who, when a team recorded it first (decision 135): its member and their name. */
    who?: { by: string; member: string },
  ): Promise<RunView> {
    const run = this.get(runId)
    this.assertEditable(run)
    const row = this.rowOf(run, index)
    if (row.confirmation && !isHeld(row)) return this.view(runId)
    const holding = holdingTripwires(row)
    if (row.excluded || row.errors.length > 0 || holding.length === 0)
      throw new AppFailure(
        'bad_request',
        `Sheet row ${row.item.row} is not held for a changed or shared account: there is nothing to confirm.`,
        { row: row.item.row },
      )
    const at = this.options.now().toISOString()
    const note = input.note?.trim()
    const confirmation: PayeeConfirmation = {
      id: `${runId}:${row.index}:${at}:${randomBytes(3).toString('hex')}`,
      method: input.method,
      ...(note ? { note } : {}),
      by: who?.by ?? this.actor(),
      ...(who ? { member: who.member } : {}),
      at,
      accountKey: rowAccountKey(row, run.state.currency),
      account: describeAccount(
        { type: 'bank_account', bank: row.item.bank_code, account: row.item.account_number },
        run.state.currency,
      ),
      payeeKey: payeeKeyOfRow(row),
      name: row.item.customer_name,
      kinds: [...new Set(holding.map((tripwire) => tripwire.kind))],
      runId,
      row: row.item.row,
    }
    row.confirmation = confirmation
    this.autosave.rowChanged(run, row)
    run.state.confirmations = [...(run.state.confirmations ?? []), confirmation]
    await Promise.all([this.autosave.saveRowsNow(run), this.autosave.saveState(run)])
    this.options.checkpoint?.('confirm:recorded')
    this.autosave.changed(run)
    return this.view(runId)
  }

  /**
   * Confirmations another member recorded in the team database for rows of this run (decision
   * 135), matched by payout reference: a held row takes the first that answers it, recorded on the
   * row and in the run like one made here, so this desk's screen, documents and journal say who
   * confirmed it and this desk sends the row once the run is approved. Rows not held, or confirmed
   * already, are left as they are. Answers how many rows took one.
   */
  async adoptConfirmations(
    runId: string,
    found: ReadonlyArray<
      Omit<PayeeConfirmation, 'accountKey' | 'account' | 'payeeKey' | 'name' | 'row'> & { reference: string }
    >,
  ): Promise<number> {
    const run = this.get(runId)
    if (!this.allows(runId, 'edit')) return 0
    const byReference = new Map(found.map((confirmation) => [confirmation.reference, confirmation]))
    const adopted: PayeeConfirmation[] = []
    for (const row of run.rows) {
      const team = byReference.get(row.item.reference)
      if (!team || !isHeld(row) || run.state.confirmations?.some((c) => c.id === team.id)) continue
      const { reference: _reference, ...recorded } = team
      const confirmation: PayeeConfirmation = {
        ...recorded,
        accountKey: rowAccountKey(row, run.state.currency),
        account: describeAccount(
          { type: 'bank_account', bank: row.item.bank_code, account: row.item.account_number },
          run.state.currency,
        ),
        payeeKey: payeeKeyOfRow(row),
        name: row.item.customer_name,
        row: row.item.row,
      }
      row.confirmation = confirmation
      this.autosave.rowChanged(run, row)
      adopted.push(confirmation)
    }
    if (adopted.length === 0) return 0
    run.state.confirmations = [...(run.state.confirmations ?? []), ...adopted]
    await Promise.all([this.autosave.saveRowsNow(run), this.autosave.saveState(run)])
    this.autosave.changed(run)
    return adopted.length
  }

  private actor(): string {
    if (this.options.actor) return this.options.actor()
    try {
      return userInfo().username
    } catch {
      return 'this desk'
    }
  }

  /**
   * Plans the batches and sends them. The plan is on disk before the first intent is journaled,
   * so a crash at any point resumes the same batches with the same references.
   *
   * `namesChecked`: a person's Send (the bulk:submit channel) is refused while a row to send has no
   * name check, or a no-match name has no acknowledgement, in every mode (decision 50). Without it
   * (a team release of an approved version, whose review carried the preparer's name checks) a
   * live run still needs its no-match names acknowledged.
   */
  async submit(
    runId: string,
    confirm: { total?: string } = {},
    rules: { namesChecked?: boolean } = {},
  ): Promise<RunView> {
    const run = this.get(runId)
    // Sent already (a second click, or a click after a restart): sending is under way or done.
    if (run.state.stage !== 'review' && run.state.batches.length > 0) return this.view(runId)
    assertCan(this.factsOf(run), 'submit')
    // Send reads the holds of the rows as they are now (decision 169).
    await this.checksSettled(runId)
    // The gate counts the rows a slice a turn, and again after a change that came meanwhile
    // (decision 183); its last slice, the checks below and the plan are one task.
    let count = await countToSend(run, nextTurn, () => this.checksSettled(runId))
    // Sent meanwhile (the other click of a double click): that is this send.
    if (run.state.batches.length > 0) return this.view(runId)
    if (run.task || run.state.stage !== 'review') throw new AppFailure('conflict', 'This run is already working.')
    // A change between the last slice and here (a promise callback): counted in this task.
    if (!countIsCurrent(run, count)) count = countToSendNow(run)
    const sendable = assertSendable(run, count, confirm, rules)
    // A run that would break a limit is refused whole, before anything of it leaves (decision 127).
    const refused = this.limits.refusalOf(run)
    if (refused)
      throw new AppFailure('bad_request', `The run was not sent: ${refused.message}`, {
        limit: refused.limit,
        ...(refused.rows ? { rows: refused.rows } : {}),
      })
    // A repeat is sent only once every difference from the run it repeats is acknowledged (decision 130).
    assertVarianceAcknowledged(this.varianceOfRun(run))
    moveTo(run.state, 'submitting', 'send')
    // The rows the gate counted: no row changed since (countIsCurrent, in this task).
    run.state.batches = planBatches(run.state.id, run.rows, sendable)
    markBatchReferences(run)
    delete run.state.message
    // The plan is in state.json: rows.json only repeats each row's batch reference, and is marked
    // again from the plan on load. So the plan is written with every change of the rows made before
    // it on disk, before the first intent is journaled; rows.json is rewritten only for a change
    // not on disk yet (decision 178).
    await Promise.all([this.autosave.rowsOnDisk(run), this.autosave.saveState(run)])
    this.tasks.startSending(run)
    return this.view(runId)
  }

  /** Asks the service again about batches that could not be confirmed, and carries on. */
  async recheck(runId: string): Promise<RunView> {
    const run = this.get(runId)
    // Asked again once the check has started (a double click): it is under way, or done.
    if (run.state.stage === 'submitting' || run.state.stage === 'monitoring' || run.state.stage === 'completed')
      return this.view(runId)
    assertCan(this.factsOf(run), 'recheck')
    moveTo(run.state, 'submitting', 'recheck')
    delete run.state.message
    await this.autosave.saveState(run)
    this.tasks.startSending(run)
    return this.view(runId)
  }

  /**
   * A new run that prepares what of the sheet is still unpaid (decision 48): its failed rows, with
   * references derived from the originals, and, when the person asks for them, the rows left out
   * by hand; written whole with its `retryOf`. Made from the last run of the sheet once every row
   * of it has its outcome. A run is retried once: asked again (a second click, a double click,
   * after a restart), the retry run that exists is the answer.
   */
  async retryFailed(runId: string, options: Partial<PrepareOptions> = {}): Promise<RunView> {
    const run = this.get(runId)
    const existing = this.retryRunOf(runId)
    if (existing) return this.view(existing.state.id)
    return this.retrying.run(runId, async () => {
      assertCan(this.factsOf(run), 'retry')
      const chain = chainOf(this.runs.values(), run)
      const asked = { leftOutByHand: options.leftOutByHand === true, withErrors: options.withErrors === true }
      const picked = rowsToPrepare(chain, asked)
      if (picked.length === 0)
        throw new AppFailure(
          'bad_request',
          asked.leftOutByHand || asked.withErrors
            ? 'No row of this run has failed or was left unsent, and no row of its sheet you asked for is unpaid: nothing is left to prepare.'
            : 'No row of this run has failed or was left unsent. Rows left out by hand or not sent because of errors are prepared only when you ask for them.',
        )
      const bytes = await this.options.store.readFile(runId, run.state.storedFile)
      const createdAt = this.options.now().toISOString()
      const made = await retryRun({ id: this.newRunId(createdAt, run.state.fileSha256), createdAt }, run, picked)
      const view = await this.store(made, bytes, 'retry:run-written')
      // The runs of the sheet say so now in the list ("retried", and what of the sheet is unpaid).
      this.tellChain(run)
      return view
    })
  }

  // ---- repeat last month's run (run-repeat.ts, decision 130)

  /** The repeat of `runId` not sent yet, if there is one. */
  private draftRepeatOf(runId: string): LiveRun | undefined {
    for (const run of this.runs.values())
      if (run.state.repeatOf === runId && run.state.batches.length === 0 && !run.state.archived) return run
    return undefined
  }

  /**
   * A new draft with the rows of the run's sheet under new references, same profile and mode
   * (run-repeat.ts), written whole. Asked again while that draft is not sent (a double click, a
   * second Repeat), the draft is the answer; once it was sent, Repeat makes another.
   */
  async repeat(runId: string): Promise<RunView> {
    const run = this.get(runId)
    return this.repeating.run(runId, async () => {
      const draft = this.draftRepeatOf(runId)
      if (draft) return this.view(draft.state.id)
      assertCan(this.factsOf(run), 'repeat')
      const chain = chainOf(this.runs.values(), run)
      const bytes = await this.options.store.readFile(runId, run.state.storedFile)
      const createdAt = this.options.now().toISOString()
      const made = await repeatRun({ id: this.newRunId(createdAt, run.state.fileSha256), createdAt }, run, chain)
      if (made.rows.length === 0) throw new AppFailure('bad_request', `Run ${runId} has no payment to repeat.`)
      return this.store(made, bytes, null)
    })
  }

  /**
   * A repeat's rows refreshed from a new sheet, matched by payee (run-repeat.ts): amounts and
   * accounts replaced, new payees added, payees not in the sheet left out as dropped. The file is
   * kept in the run's folder and the refresh recorded in the run. A sheet with errors is refused
   * (its rows would otherwise read as dropped payees): it names them.
   */
  async refreshRepeat(
    runId: string,
    file: { name: string; bytes: Uint8Array; sha256: string },
    result: BulkImportResult,
  ): Promise<RunView> {
    const run = this.get(runId)
    this.assertEditable(run)
    const { state } = run
    if (!state.repeatOf) throw new AppFailure('bad_request', 'Only a repeated run is refreshed from a new sheet.')
    if (run.task) throw new AppFailure('conflict', 'Wait for the name checks to finish, or cancel them, then refresh.')
    if (result.errors.length > 0) {
      const named = result.errors
        .slice(0, 5)
        .map((error) => `row ${error.row}${error.column ? `, ${error.column}` : ''}: ${error.message}`)
      throw new AppFailure(
        'bad_request',
        `${file.name} has ${result.errors.length} ${result.errors.length === 1 ? 'error' : 'errors'} (${named.join('; ')}${result.errors.length > 5 ? '; …' : ''}): fix the sheet, then refresh from it.`,
        { rows: result.errors.map((error) => error.row) },
      )
    }
    if (result.items.length === 0) throw new AppFailure('bad_request', `${file.name} has no payment rows.`)
    const source = this.runs.get(state.repeatOf)
    const runWide = source?.state.imported?.run_wide?.customer_email?.value
    const plan = refreshPlan(run.rows, result.items, runWide)
    const storedFile = `refresh-${(state.refreshes?.length ?? 0) + 1}-${storedFileOf(file.name)}`
    await this.options.store.writeFile(runId, storedFile, file.bytes)
    const { changed, counts } = await applyRefresh(run, plan, state.currency)
    for (const row of changed) this.autosave.rowChanged(run, row)
    state.refreshes = [
      ...(state.refreshes ?? []),
      {
        at: this.options.now().toISOString(),
        by: this.actor(),
        fileName: file.name,
        fileSha256: file.sha256,
        storedFile,
        ...counts,
      },
    ]
    await Promise.all([this.autosave.saveRowsNow(run), this.autosave.saveState(run)])
    this.autosave.changed(run)
    const toCheck = changed.filter((row) => !row.excluded && row.errors.length === 0 && row.resolution === 'unchecked')
    if (toCheck.length > 0 && toCheck.length <= ANSWERED_CHECKED_AT_ONCE && !run.task) {
      await this.tasks.checkRowNames(run, toCheck)
      await this.autosave.saveRowsNow(run)
    }
    return this.view(runId)
  }

  /**
   * "I have looked at these differences": the variance items named (as they stand now) recorded as
   * acknowledged, with who and when and each item in words, in the run's state (its report and
   * evidence pack carry them). Items already acknowledged, or no longer there, are left.
   */
  async acknowledgeVariance(runId: string, ids: readonly string[]): Promise<RunView> {
    const run = this.get(runId)
    this.assertEditable(run)
    const variance = this.varianceOfRun(run)
    if (!variance) throw new AppFailure('bad_request', 'This run repeats no run: it has no variance review.')
    const asked = new Set(ids)
    const done = new Set(variance.acknowledged)
    const items = variance.items.filter((item) => asked.has(item.id) && !done.has(item.id))
    if (items.length === 0) return this.view(runId)
    run.state.varianceAcknowledgements = [
      ...(run.state.varianceAcknowledgements ?? []),
      {
        at: this.options.now().toISOString(),
        by: this.actor(),
        items: items.map((item) => ({
          id: item.id,
          words: explainVariance(item),
          ...('sheetRows' in item ? { sheetRows: item.sheetRows } : {}),
        })),
      },
    ]
    await this.autosave.saveState(run)
    this.autosave.changed(run)
    return this.view(runId)
  }

  /**
   * A repeat's variance review, read from the records of the run it repeats and its own rows; kept
   * until either's rows, the acknowledgements or the percentage change (a view is asked at every
   * change of a run, and a review of 100,000 rows takes main some hundred milliseconds).
   */
  private varianceOfRun(run: LiveRun): RunVariance | null {
    const sourceId = run.state.repeatOf
    if (!sourceId) return null
    const source = this.runs.get(sourceId)
    const chain = source ? chainOf(this.runs.values(), source) : null
    const percent = this.options.variancePercent?.(run.state.profileId) ?? DEFAULT_VARIANCE_PERCENT
    const key = [
      run.rowsVersion,
      run.state.varianceAcknowledgements?.length ?? 0,
      percent,
      ...(chain ?? []).map((member) => `${member.state.id}:${member.rowsVersion}`),
    ].join('|')
    const kept = this.variances.get(run)
    if (kept?.key === key) return kept.variance
    const variance = varianceOf(run, chain, percent)
    this.variances.set(run, { key, variance })
    return variance
  }

  /** Every run of `run`'s sheet to the screen again: what one of them came to changes what the others say. */
  private tellChain(run: LiveRun): void {
    for (const member of chainOf(this.runs.values(), run)) this.options.events.runChanged(this.summary(member))
  }

  /** A finished run, told to the desktop: every row of it and of its sheet counted (decision 48). */
  private announce(run: LiveRun): void {
    const outcome = this.figures.outcomeOf(run, false)
    this.tellChain(run)
    if (!outcome) return
    const tally = this.figures.tallyOf(run)
    this.options.notify({
      kind: outcome.allPaid ? 'success' : 'failure',
      title: outcome.allPaid
        ? 'Bulk run paid'
        : tally.places.failed.rows > 0
          ? 'Bulk run finished with failures'
          : 'Bulk run finished: not every row paid',
      body: `${run.state.fileName}: ${outcome.headline}${tally.places.failed.rows > 0 ? ' Open the run to prepare the failed rows again.' : ''}`,
    })
  }

  /** Waits for every run's long step to end (tests, quitting). */
  idle(): Promise<void> {
    return this.tasks.idle(this.runs.values())
  }

  async close(): Promise<void> {
    await this.tasks.close(this.runs.values())
    for (const run of this.runs.values()) {
      await this.autosave.flush(run)
    }
  }

  // ---- plumbing

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
    assertCan(this.factsOf(run), 'edit')
  }

  /**
   * Once the checks of a run in review have seen its rows as they are (decision 169): name checks
   * that have just finished still closing, then the payee book's checks. What reads the holds
   * waits for this first: Send, and the version shared with the team (its payee checks).
   */
  async checksSettled(runId: string): Promise<void> {
    const run = this.get(runId)
    if (run.task && run.state.stage === 'review') await run.task
    await this.options.payeesChecked?.(runId)
  }

  /** Refuses `action` with its reason when the run does not allow it now (run-actions.ts, decision 096). */
  assertAllowed(runId: string, action: RunAction): void {
    assertCan(this.factsOf(this.get(runId)), action)
  }

  /** Whether the run allows `action` now (run-actions.ts). */
  allows(runId: string, action: RunAction): boolean {
    return refusalOf(this.factsOf(this.get(runId)), action) === null
  }

  /** What the rules of run-actions.ts read of a run. */
  private factsOf(run: LiveRun): RunFacts {
    const { state } = run
    return {
      id: state.id,
      stage: state.stage,
      batches: state.batches.length,
      archived: state.archived === true,
      working: run.task !== null,
      journalRecords: () => this.options.journal.list({ runId: state.id }).length,
    }
  }

  private summary(run: LiveRun, totals = totalsOf(run.state, run.rows, run.sums.sendable())): RunSummary {
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
      ...(state.repeatOf ? { repeatOf: state.repeatOf } : {}),
      counts: run.sums.runCounts(),
      total: totals.amount,
      ...(state.archived ? { archived: true } : {}),
      outcome: this.figures.outcomeOf(run, this.retryRunOf(state.id) !== undefined),
      can: runActions(this.factsOf(run)),
    }
  }

  private newRunId(createdAt: string, sha256: string): string {
    for (let n = 0; ; n++) {
      const id = runIdOf(createdAt, sha256, randomBytes(2).toString('hex'), n)
      if (!this.runs.has(id)) return id
    }
  }
}
