/**
 * The bulk channels, served from the services of this folder: the import (bulk-imports.ts), the
 * runs (run/run-service.ts) and their files (bulk-run-files.ts). Every channel waits until the
 * runs are loaded and resumed; an edit is told to the RunHooks after it (decision 092).
 */
import { join } from 'node:path'
import { existsSync } from 'node:fs'
import { MODE_NAMES } from '../../../../shared/words/profile-modes'
import { AppFailure } from '../../../../shared/result'
import type { DomainService } from '../domain-service'
import { InFlight } from '../sending'
import type { ServiceContext } from '../service-context'
import { FeePayerMemory } from '../fees'
import type { BulkChannel, BulkHandlers } from './bulk-handlers'
import { bulkImportHandlers } from './bulk-imports'
import { runFiles } from './bulk-run-files'
import { saveTemplate } from './import/save-template'
import { bulkBatchVerifier } from './run/batch-sender'
import { RunService } from './run/run-service'
import { RUNS_FOLDER, RunStore } from './run/run-store'
import type { RunHooks } from './run-hooks'
import { createRunPayeeChecks, type RunPayeeChecks } from './run-payee-checks'
import type { RunSummary } from '../../../../shared/domain/bulk-run'
import type { LimitGate } from '../limits'
import { RepeatVarianceSetting } from './repeat-variance-setting'
import { findRows, rowsDigest, runPanels } from './row-reads'
import { rowsChangedOf } from '../../../../shared/bulk/row-codes'

export interface BulkDomainOptions extends RunHooks {
  /** How often monitoring asks the service about open batches. */
  pollMs?: number
  /** Every summary of a run the screen is told (the payee checks follow them: run-payee-checks.ts). */
  onRunChanged?: (summary: RunSummary) => void
  /** The limits every run passes at Send and each batch before its intent is journaled (decision 127). */
  limits?: LimitGate
  /** A profile's percentage for the variance review of repeats (repeat-variance-setting.ts). */
  variancePercent?: (profileId: string) => string
  /** Resolves once a run's payee checks are current (run-payee-checks.ts): Send waits for it (decision 169). */
  payeesChecked?: (runId: string) => Promise<void>
}

export function createBulkRunService(context: ServiceContext, options: BulkDomainOptions = {}): RunService {
  return new RunService({
    store: new RunStore(join(context.userDataDir, RUNS_FOLDER)),
    journal: context.journal,
    apiFor: async (profileId) => {
      const { api, mode, profileId: id } = await context.apiFor(profileId)
      return { profileId: id, mode, bulk: api.bulk, lookups: api.lookups, ...(api.pace ? { pace: api.pace } : {}) }
    },
    events: {
      runChanged: (summary) => {
        context.emit('bulk:runChanged', summary)
        options.onRunChanged?.(summary)
      },
      // By index with their codes (decision 175): the screen reads the rows whole it shows.
      rowsChanged: (runId, rows) => context.emit('bulk:rowsChanged', rowsChangedOf(runId, rows)),
      progress: (runId, progress) => context.emit('bulk:progress', { runId, progress }),
    },
    notify: (notice) => context.desktop.notifier.notify(notice),
    now: () => context.now(),
    log: context.log,
    ...(context.checkpoint ? { checkpoint: context.checkpoint } : {}),
    ...(options.pollMs ? { pollMs: options.pollMs } : {}),
    feePayer: new FeePayerMemory(context.userDataDir),
    ...(options.beforeBatchLeaves ? { beforeBatchLeaves: options.beforeBatchLeaves } : {}),
    ...(options.holdOnResume ? { holdOnResume: options.holdOnResume } : {}),
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.variancePercent ? { variancePercent: options.variancePercent } : {}),
    ...(options.payeesChecked ? { payeesChecked: options.payeesChecked } : {}),
  })
}

export interface BulkDomain extends DomainService<BulkChannel> {
  /** The runs, once loaded: for other domains that read them (the run documents). */
  loadedRuns(): Promise<RunService>
}

export function createBulkDomain(context: ServiceContext, hooks: BulkDomainOptions = {}): BulkDomain {
  // The payee book's checks of each run's rows, and what a run paid (decisions 108, 109).
  let payeeChecks: RunPayeeChecks | null = null
  // The variance review's percentage per profile (decision 130), read before the runs load.
  const variance = new RepeatVarianceSetting(context.userDataDir)
  const runs = createBulkRunService(context, {
    pollMs: 1000,
    ...hooks,
    onRunChanged: (summary) => payeeChecks?.runChanged(summary),
    variancePercent: (profileId) => variance.percentOf(profileId),
    payeesChecked: (runId) => payeeChecks?.settled(runId) ?? Promise.resolve(),
  })
  payeeChecks = createRunPayeeChecks(() => runs, hooks, context.log)
  // A batch the service never received is sent again by its run when runs resume, same references.
  const runsFolder = join(context.userDataDir, RUNS_FOLDER)
  context.reconciler.register(
    'bulk_batch',
    bulkBatchVerifier(async (profileId) => (await context.apiFor(profileId)).api.bulk),
    (movement) =>
      movement.runId && existsSync(join(runsFolder, movement.runId, 'state.json')) ? 'sent_again' : undefined,
  )
  // Runs are loaded and resumed only once the domain starts, after start-up reconciliation: a
  // run resumed earlier would send while the reconciler verifies the same batches, and a finding
  // of the reconciler made before an acceptance could land after it. Every channel waits for that.
  let started: () => void = () => undefined
  const startedUp = new Promise<void>((resolve) => (started = resolve))
  let loaded: Promise<void> | null = null
  // Once resumed, every run's paid rows are told to the payee book, which learns what it lacks (decision 166).
  const ready = () =>
    (loaded ??= startedUp
      .then(() => variance.load())
      .then(() => runs.resumeAll())
      .then(() => payeeChecks?.tellEveryRun()))

  // A second Delete of the same run (a double click) joins the first.
  const removing = new InFlight<{ deleted: string }>()
  const files = runFiles(context, runs)
  /**
   * A run is sent under its own profile's banner (decision 49): while the desk works with another
   * profile, Send is refused and says which profile the run belongs to.
   */
  async function assertUnderItsProfile(runId: string): Promise<void> {
    const state = runs.stateOf(runId)
    const active = await context.profiles.list()
    if (active.activeId === state.profileId) return
    const owner = active.profiles.find((profile) => profile.id === state.profileId)
    const current = active.profiles.find((profile) => profile.id === active.activeId)
    throw new AppFailure(
      'conflict',
      `This run belongs to the profile ${owner ? `"${owner.name}"` : state.profileId} (${MODE_NAMES[state.mode]}), and the desk now works with ${current ? `"${current.name}" (${MODE_NAMES[current.mode]})` : 'another profile'}: open the run again to switch to its profile, then send it.`,
      { profileId: state.profileId, mode: state.mode },
    )
  }

  /** A channel answered once the runs are loaded and resumed: every channel waits for that. */
  const whenReady =
    <A, R>(answer: (args: A) => R | Promise<R>) =>
    async (args: A): Promise<R> => {
      await ready()
      return answer(args)
    }
  /** An edit of a run, answered once ready; then told to the hooks (team mode shares the new version). */
  const anEdit = <A extends { runId: string }, R>(edit: (args: A) => Promise<R>) =>
    whenReady(async (args: A): Promise<R> => {
      const answer = await edit(args)
      hooks.runEdited?.(args.runId)
      return answer
    })

  const handlers: BulkHandlers = {
    ...bulkImportHandlers(context, runs, hooks, ready),
    'bulk:runs': whenReady(() => runs.list()),
    'bulk:run': whenReady(({ runId }) => runs.view(runId)),
    'bulk:rows': whenReady(({ runId, offset = 0, limit }) => {
      const rows = runs.rows(runId)
      return offset === 0 && limit === undefined
        ? rows
        : rows.slice(offset, limit === undefined ? undefined : offset + limit)
    }),
    'bulk:rowsDigest': whenReady(({ runId }) => rowsDigest(runs.rows(runId))),
    'bulk:panels': whenReady(({ runId }) => runPanels(runs.rows(runId), () => runs.view(runId))),
    'bulk:findRows': whenReady(({ runId, find }) => findRows(runs.rows(runId), find)),
    'bulk:resolve': whenReady(({ runId }) => runs.startResolution(runId)),
    'bulk:cancel': whenReady(({ runId }) => runs.cancel(runId)),
    'bulk:review': whenReady(({ runId }) => runs.toReview(runId)),
    'bulk:editRow': anEdit(({ runId, index, field, value }) => runs.editRow(runId, index, field, value)),
    'bulk:editCells': anEdit(({ runId, kind, edits }) => runs.editCells(runId, edits, kind)),
    'bulk:undo': anEdit(({ runId }) => runs.undo(runId)),
    'bulk:redo': anEdit(({ runId }) => runs.redo(runId)),
    'bulk:changes': whenReady(({ runId, limit = 200 }) => runs.changes(runId, limit)),
    'bulk:delete': ({ runId }) =>
      removing.run(runId, async () => {
        await ready()
        return runs.remove(runId)
      }),
    'bulk:archive': whenReady(({ runId, archived }) => runs.archive(runId, archived)),
    'bulk:saveTemplate': ({ format }) => saveTemplate(context, format),
    'bulk:exclude': anEdit(({ runId, indexes, excluded }) => runs.setExcluded(runId, indexes, excluded)),
    'bulk:answerQuestion': anEdit(({ runId, indexes, question }) => runs.answerQuestion(runId, indexes, question)),
    // A confirmation changes what the run sends: told to the hooks like any edit (decision 124).
    // Team mode records it in the team database first, which refuses the run's preparer (decision 135).
    'bulk:confirmPayee': anEdit(async ({ runId, index, method, note }) => {
      const input = { method, ...(note !== undefined ? { note } : {}) }
      const who = await hooks.confirmingPayee?.(runId, index, input)
      const view = await runs.confirmPayee(runId, index, input, who ?? undefined)
      payeeChecks?.tellConfirmed(view)
      return view
    }),
    'bulk:setOptions': anEdit(({ runId, ...rest }) => runs.setOptions(runId, rest)),
    // An acknowledgement changes the review an approver sees: in team mode it is shared as a new version.
    'bulk:acknowledgeNames': anEdit(({ runId, indexes }) => runs.acknowledgeNames(runId, indexes)),
    // A person's Send: the run's own profile must be the desk's (its banner on screen), and every
    // row to send has its name checked and every no-match name acknowledged (decisions 49, 50).
    'bulk:submit': whenReady(async ({ runId, confirmTotal }) => {
      await assertUnderItsProfile(runId)
      return runs.submit(runId, confirmTotal === undefined ? {} : { total: confirmTotal }, { namesChecked: true })
    }),
    'bulk:recheck': whenReady(({ runId }) => runs.recheck(runId)),
    'bulk:retryFailed': whenReady(({ runId, leftOutByHand, withErrors }) =>
      runs.retryFailed(runId, { leftOutByHand: leftOutByHand === true, withErrors: withErrors === true }),
    ),
    'bulk:repeat': whenReady(({ runId }) => runs.repeat(runId)),
    'bulk:acknowledgeVariance': anEdit(({ runId, ids }) => runs.acknowledgeVariance(runId, ids)),
    'bulk:variancePercent': async () => {
      await variance.load()
      const { activeId } = await context.profiles.list()
      return { profileId: activeId, percent: variance.percentOf(activeId) }
    },
    'bulk:setVariancePercent': async ({ percent }) => {
      const { activeId } = await context.profiles.list()
      return { profileId: activeId, percent: await variance.set(activeId, percent) }
    },
    'bulk:exportReport': whenReady(({ runId, format }) => files.saveReport(runId, format)),
    'bulk:exportEvidence': whenReady(({ runId }) => files.saveEvidence(runId)),
  }

  return {
    handlers,
    loadedRuns: async () => (await ready(), runs),
    start: () => {
      started()
      void ready().catch((error: unknown) => context.log.error('Bulk runs could not be resumed', error))
    },
    close: () => {
      payeeChecks?.close()
      return runs.close()
    },
  }
}
