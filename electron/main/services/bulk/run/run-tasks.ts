/**
 * A run's long work in the background (decision 115): name checks, and submission then monitoring
 * until every item is final. Each runs as the run's one task (`run.task`, which run-actions.ts
 * reads as "working"); its progress reaches the screen through the autosave's events. A task that
 * stops on an error leaves the run where it can be asked again: name checks at their stage,
 * anything else in 'attention' with the reason. Closing cancels every task, ends monitoring's
 * pauses at once (a quit does not wait out a poll) and waits for the tasks to stop.
 *
 * RunService (run-service.ts) decides when a task starts (an action, or a run carried on at
 * start-up); this module runs it.
 */
import type { Checkpoints } from '../../checkpoints'
import type { Journal } from '../../journal'
import type { RunRow } from '../../../../../shared/domain/bulk-run'
import type { RunAutosave } from './autosave'
import { isSettled } from './batch-items'
import type { LiveRun, RunApiFor, RunLog } from './live-run'
import { pacedLanes, runPool } from './pool'
import { canMove, moveTo } from './stages'
import { checkNames, checkRowName } from './steps/name-checks'
import { monitorBatches } from './steps/monitoring'
import type { RunStepContext } from './steps/step-context'
import type { AdmitBatch, BeforeBatchLeaves } from './steps/submission'
import { isHeldByLimits, limitStopMessage } from './limit-stop'
import { submitBatches } from './steps/submission'

export interface RunTasksOptions {
  apiFor: RunApiFor
  journal: Journal
  autosave: RunAutosave
  log?: RunLog
  resolveConcurrency?: number
  submitConcurrency?: number
  pollMs?: number
  sleep?: (ms: number) => Promise<void>
  checkpoint?: Checkpoints
  beforeBatchLeaves?: BeforeBatchLeaves
  /** Admits each batch under the limits before its intent is journaled (decision 127). */
  limits?: AdmitBatch
  /** A run whose monitoring found every item final: told to the screens and the desktop. */
  announce(run: LiveRun): void
}

export class RunTasks {
  private closed = false
  /** Monitoring's pauses between polls: close() ends them at once. */
  private readonly pauses = new Set<() => void>()
  private readonly sleep: (ms: number) => Promise<void>
  private readonly resolveConcurrency: number
  private readonly submitConcurrency: number
  private readonly pollMs: number

  constructor(private readonly options: RunTasksOptions) {
    this.sleep = options.sleep ?? ((ms) => new Promise((done) => setTimeout(done, ms)))
    this.resolveConcurrency = options.resolveConcurrency ?? 8
    this.submitConcurrency = options.submitConcurrency ?? 4
    this.pollMs = options.pollMs ?? 2000
  }

  /** Name checks for every row of the run not yet checked, with bounded concurrency; Cancel stops them. */
  startNameChecks(run: LiveRun): void {
    this.start(run, () => checkNames(run, this.stepContext(), this.resolveConcurrency))
  }

  /** Submission then monitoring, until every item is final. */
  startSending(run: LiveRun): void {
    this.start(run, () => this.send(run))
  }

  /**
   * These rows' names checked with the bank now (an edit, a question answered, a refresh), with the
   * checks' concurrency; each row checked is told as changed (its figures, the screen, the next
   * save: checkRowName tells it).
   */
  async checkRowNames(run: LiveRun, rows: RunRow[]): Promise<void> {
    // A profile whose API cannot be had now (no key yet) checks with fixed lanes: each row then
    // says why it stayed unchecked, as before.
    const pace = await this.options.apiFor(run.state.profileId).then(
      (api) => api.pace,
      () => undefined,
    )
    await runPool(rows, pacedLanes(pace, this.resolveConcurrency), (row) => checkRowName(run, row, this.options))
  }

  /** Waits for every task of these runs to end (tests, quitting). */
  async idle(runs: Iterable<LiveRun>): Promise<void> {
    await Promise.all([...runs].map((run) => run.task))
  }

  /** Cancels every task of these runs, ends the pauses, and waits for the tasks to stop. */
  async close(runs: Iterable<LiveRun>): Promise<void> {
    this.closed = true
    const all = [...runs]
    for (const run of all) run.cancelled = true
    for (const wake of [...this.pauses]) wake()
    await Promise.all(all.map((run) => run.task?.catch(() => undefined)))
  }

  private start(run: LiveRun, work: () => Promise<void>): void {
    const { autosave, log } = this.options
    run.cancelled = false
    run.task = work()
      .catch(async (error: unknown) => {
        log?.error(`Bulk run ${run.state.id} stopped`, error)
        // Name checks that stopped stay at their stage (they can be asked for again); anything else waits for a check.
        if (run.state.stage !== 'resolving' && canMove(run.state.stage, 'attention', 'needs_attention'))
          moveTo(run.state, 'attention', 'needs_attention')
        run.state.message = `Stopped: ${(error as Error).message}`
        run.state.resolving = false
        await autosave.saveState(run).catch(() => undefined)
      })
      .finally(() => {
        run.task = null
        autosave.flushRowEvents(run)
        autosave.changed(run)
      })
  }

  private async send(run: LiveRun): Promise<void> {
    const { autosave } = this.options
    const context = this.stepContext()
    if (run.state.stage === 'submitting') {
      const stop = await submitBatches(run, context, {
        concurrency: this.submitConcurrency,
        backoffMs: Math.min(this.pollMs, 1000),
        sleep: this.sleep,
        ...(this.options.checkpoint ? { checkpoint: this.options.checkpoint } : {}),
        ...(this.options.beforeBatchLeaves ? { beforeBatchLeaves: this.options.beforeBatchLeaves } : {}),
        ...(this.options.limits ? { limits: this.options.limits } : {}),
      })
      // Stopped by a limit (decision 127): the batches before are followed to their end; the rest stay unsent.
      if (stop) run.state.message = limitStopMessage(run, stop)
      const open = run.state.batches.filter((b) => !isSettled(b) && !isHeldByLimits(b))
      if (open.length > 0 || this.closed) {
        // The batches as answered (a cache of the journal, where every answer is by now) and the rows.
        await Promise.all([autosave.saveState(run), autosave.saveRowsNow(run)])
        if (this.closed) return
        moveTo(run.state, 'attention', 'needs_attention')
        run.state.message = `${open.length} batch(es) could not be confirmed yet: ${open[0]?.message ?? ''}`.trim()
        await autosave.saveState(run)
        return
      }
      // Monitoring starts while the rows of every answer go to disk (some 0.8 s at 100,000 rows);
      // state.json says 'monitoring' only once they are (decision 179). A crash before finds the
      // run submitting, and the answers in the journal rebuild its rows.
      moveTo(run.state, 'monitoring', 'batches_settled')
      autosave.rowsBeforeState(run)
      autosave.changed(run)
      void autosave
        .saveState(run)
        .catch((error: unknown) => this.options.log?.error('Saving the run as it is monitored failed', error))
    }
    if (run.state.stage === 'monitoring')
      await monitorBatches(run, context, {
        concurrency: this.resolveConcurrency,
        pollMs: this.pollMs,
        pause: (ms) => this.pause(ms),
        announce: (finished) => this.options.announce(finished),
      })
  }

  private stepContext(): RunStepContext {
    return {
      apiFor: this.options.apiFor,
      journal: this.options.journal,
      autosave: this.options.autosave,
      ...(this.options.log ? { log: this.options.log } : {}),
      isClosed: () => this.closed,
    }
  }

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
}
