/**
 * The reconciliation channels (decisions 118, 119): a period of the active profile reconciled in
 * main, one at a time, its progress as events and a Cancel between pages or verifies. Our records
 * are the journal's single payouts and the sent rows of this profile's runs in the same mode; the
 * service's are every payout its history shows for the period. The period shown is then explained
 * and closed (period-closing.ts, its records fsynced per profile and mode) and exported for the
 * books and the auditor (reconciliation-exports.ts).
 *
 * Where the period's two sides come from (the service or a file, our records and the team's) is
 * period-sources.ts; the team's record of a period is team-closing-records.ts (decision 149).
 *
 * Size: about 450 lines, the fifteen channels of one screen over one held state (the period shown,
 * its reading, its close); each handler is a few lines over the modules named above. The report's
 * drawing and copies (reportOf, closedReport) are the next to move out if it grows.
 */
import { userInfo } from 'node:os'
import type { reconciliationChannels } from '../../../../shared/ipc/channels/reconciliation'
import { ledgerMappingProblem } from '../../../../shared/reconciliation/journal-entries'
import type { ReconCurrencyTotals, ReconLine } from '../../../../shared/reconciliation/period-match'
import { differsSplit, exceptionsOf } from '../../../../shared/reconciliation/period-match'
import type { PeriodCloseState } from '../../../../shared/reconciliation/period-close'
import { periodKey } from '../../../../shared/reconciliation/period-close'
import type {
  ReconciliationPeriod,
  ReconciliationProgress,
  ReconciliationResult,
  ReconciliationSource,
  ReconciliationView,
} from '../../../../shared/reconciliation/reconciliation-view'
import { EXCEPTIONS_SHOWN } from '../../../../shared/reconciliation/reconciliation-view'
import { AppFailure } from '../../../../shared/result'
import type { DomainService } from '../domain-service'
import { holdsSecret } from '../masking'
import type { ServiceContext } from '../service-context'
import { createPeriodSources } from './period-sources'
import type { PeriodSourcesOptions } from './period-sources'
import { closingFileOf, openClosingRecords } from './closing-records'
import { openTeamClosingRecords, teamMemberOf, teamPayoutsOf } from './team-closing-records'
import type { ReconTeam } from './team-closing-records'
import type { ClosingRecords } from './closing-records'
import {
  assertClosable,
  closePeriod,
  confirmableOrRefuse,
  closeStateOf,
  explainException,
  explanationsOf,
  reopenPeriod,
} from './period-closing'
import { readClosingReport, reportFolderOf, writeClosingReport } from './closing-report'
import type { PeriodUnderClose } from './period-closing'
import {
  exportForAuditor,
  exportJournalEntries,
  paidPayoutsOf,
  reconciliationCsv,
  teamTrailFiles,
  saveReportCopy,
} from './reconciliation-exports'
import type { ProfileMode } from '../../../../shared/domain/profiles'
import type { ReconciliationReport } from '../../../../shared/reconciliation/reconciliation-report'
import { reconciliationReportOf } from '../../../../shared/reconciliation/reconciliation-report'

/** The files an offline reconciliation reads: the offline review's exports (decision 141). */
const HISTORY_FILES = [{ name: 'Payout Desk history exports', extensions: ['xlsx', 'csv'] }]

const FILE_CLOSE_REFUSAL =
  "A reconciliation of a file is a check made offline: a period is closed, and its entries exported, from the service's own history, where every payout is verified. Reconcile the period with the service to close it."

/**
 * A file reconciled offline never closes the period nor exports its entries (decision 141): a file
 * is untrusted and nothing of ours it lacks could be verified. Explanations are recorded as online.
 */
function offlineClose(done: Reconciled, close: PeriodCloseState): PeriodCloseState {
  if (done.source.kind !== 'file') return close
  return { ...close, can: { ...close.can, close: false, exportJournal: false } }
}

function refuseOffline(done: Reconciled): void {
  if (done.source.kind === 'file') throw new AppFailure('conflict', FILE_CLOSE_REFUSAL)
}

/** The computer's user: who recorded an explanation or a close on this desk. */
function computerUser(): string {
  try {
    return userInfo().username
  } catch {
    return process.env['USER'] ?? process.env['USERNAME'] ?? 'unknown user'
  }
}

/** The period last reconciled, whole: every line stays in main; the view carries what the screen shows. */
interface Reconciled extends PeriodUnderClose {
  profileId: string
  mode: string
  period: ReconciliationPeriod
  lines: ReconLine[]
  totals: ReconCurrencyTotals[]
  /** Whether a bulk run's payee bore its fees (merchant_bears_cost false), by run. */
  payeeBearsFees: ReadonlySet<string>
  /** When the service's history was read (ISO 8601). */
  readAt: string
  /** The service's history, or an exported file reconciled offline (decision 141). */
  source: ReconciliationSource
  /** Reconciled in team mode: the period's records are the team's (decision 149). */
  team: boolean
}

/** Who bore a paid line's fee: a bulk run whose payee bore it books none (decision 118). */
function feeBorneByOf(done: Reconciled): (line: ReconLine) => 'payee' | 'business' {
  return (line) => {
    const source = line.ours?.source
    return source && source.kind !== 'payout' && done.payeeBearsFees.has(source.runId) ? 'payee' : 'business'
  }
}

export function createReconciliationDomain(
  context: Pick<ServiceContext, 'apiFor' | 'emit' | 'journal' | 'now' | 'log' | 'userDataDir' | 'desktop'> & {
    profiles: Pick<ServiceContext['profiles'], 'list' | 'ledgerAccounts' | 'setLedgerAccounts'>
  },
  options: Omit<PeriodSourcesOptions, 'teamRecords'> & {
    /** Who records explanations and closes; the computer's user by default (the member in team mode). */
    actor?: () => string
    /** Team mode (decision 149): the team's payouts, and the team's record of each period. */
    team?: ReconTeam
  },
): DomainService<keyof typeof reconciliationChannels> {
  const actor = options.actor ?? computerUser
  let view: ReconciliationView = { running: false, progress: null, cancelled: false, error: null, result: null }
  let running: AbortController | null = null
  let reconciled: Reconciled | null = null
  /** A close writing its report: nothing else is recorded for the period meanwhile. */
  let closing = false
  /** The closing records of each profile and mode, opened once. */
  const closingFiles = new Map<string, Promise<ClosingRecords>>()

  /** The records of a reconciled period: the team's in team mode, else this profile and mode's file. */
  function recordsOf(done: Reconciled): Promise<ClosingRecords> {
    if (done.team) return openTeamClosingRecords(options.team!, done)
    const file = closingFileOf(context.userDataDir, done)
    let records = closingFiles.get(file)
    if (!records) {
      records = openClosingRecords(file)
      closingFiles.set(file, records)
      records.catch(() => closingFiles.delete(file))
    }
    return records
  }

  const progress = (next: ReconciliationProgress) => {
    view = { ...view, progress: next }
    context.emit('reconciliation:progress', next)
  }
  const sources = createPeriodSources(
    context,
    {
      runs: options.runs,
      teamRecords: (scope) => teamPayoutsOf(options.team, scope),
    },
    progress,
  )

  /** The view's result for the period reconciled, with its explanations and where its close stands. */
  function resultOf(
    done: Reconciled,
    records: ClosingRecords,
    read: { readAt: string; cached: boolean },
  ): ReconciliationResult {
    const shown = done.exceptions.slice(0, EXCEPTIONS_SHOWN)
    return {
      profileId: done.profileId,
      mode: done.mode,
      period: done.period,
      readAt: read.readAt,
      cached: read.cached,
      lines: done.lines.length,
      totals: done.totals,
      differs: differsSplit(done.lines),
      exceptionCount: done.exceptions.length,
      exceptions: shown,
      explanations: explanationsOf(records, done.key, shown),
      close: offlineClose(done, closeStateOf(records, done, shown)),
      source: done.source,
    }
  }

  async function reconcile(period: ReconciliationPeriod, signal: AbortSignal, path: string | null): Promise<void> {
    const read =
      path === null ? await sources.fromService(period, signal) : await sources.fromFile(period, path, signal)
    if (!read || signal.aborted) return
    const { profileId, mode, result } = read
    const readAt = context.now().toISOString()
    const done: Reconciled = {
      readAt,
      key: periodKey(period),
      profileId,
      mode,
      period,
      lines: result.lines,
      totals: result.totals,
      exceptions: exceptionsOf(result),
      stillOpen: result.lines.filter((line) => line.state === 'open').length,
      payeeBearsFees: read.payeeBearsFees,
      source: read.source,
      team: (await teamMemberOf(options.team)) !== null,
    }
    // In team mode the payouts nobody in the team sent are recorded in the team as alerts (decision
    // 149): a close, from any desk or psql, is held to them. Never from a file: it is untrusted.
    const records = done.team
      ? await openTeamClosingRecords(
          options.team!,
          done,
          read.source.kind === 'service'
            ? done.exceptions.filter((line) => line.state === 'service_only').map((line) => line.reference)
            : undefined,
        )
      : await recordsOf(done)
    if (signal.aborted) return
    reconciled = done
    view = { ...view, result: resultOf(done, records, { readAt, cached: read.cached }) }
    progress({ stage: 'done', pages: read.pages, payouts: result.lines.length, verified: 0, toVerify: 0 })
  }

  /** The period shown, for a person's action on it: refused while one is being read, or before any. */
  /** The active profile: the one whose books the accounts are for. */
  async function activeProfileId(): Promise<string> {
    return (await context.profiles.list()).activeId
  }

  function current(): Reconciled {
    if (running) throw new AppFailure('conflict', 'A period is being reconciled: wait for it to finish.')
    if (closing) throw new AppFailure('conflict', 'The period is being closed: wait for its report to be written.')
    if (!reconciled || !view.result) throw new AppFailure('not_found', 'Reconcile a period first.')
    return reconciled
  }

  /** After a record: the view shows what main now holds. */
  async function refreshed(done: Reconciled): Promise<ReconciliationView> {
    const records = await recordsOf(done)
    view = { ...view, result: resultOf(done, records, view.result!) }
    return view
  }

  /** A note is kept on disk and exported: never a card number or a key (the journal's rule too). */
  function refuseSecret(text: string, what: string): void {
    const found = holdsSecret(text, context.log.secrets)
    if (found)
      throw new AppFailure(
        'bad_request',
        `The ${what} holds what looks like a ${found}: nothing was recorded. Write it without the ${found}.`,
      )
  }

  /** Starts reading the period (from the service, or a file offline) in main; answers at once. */
  function begin(period: ReconciliationPeriod, path: string | null): ReconciliationView {
    if (running) throw new AppFailure('conflict', 'A period is being reconciled: cancel it or wait for it to finish.')
    const controller = new AbortController()
    running = controller
    reconciled = null
    view = { running: true, progress: null, cancelled: false, error: null, result: null }
    void reconcile(period, controller.signal, path)
      .catch((error: unknown) => {
        context.log.warn('Reconciling a period failed', error)
        view = {
          ...view,
          error:
            error instanceof AppFailure
              ? { code: error.code, message: error.message }
              : { code: 'internal', message: 'Reconciling the period failed inside the app; try again.' },
        }
      })
      .finally(() => {
        if (running === controller) running = null
        view = { ...view, running: false, cancelled: controller.signal.aborted }
        context.emit(
          'reconciliation:progress',
          view.progress ?? { stage: 'done', pages: 0, payouts: 0, verified: 0, toVerify: 0 },
        )
      })
    return view
  }

  /** Who records and when; in team mode the member (the team's database stamps its own records too). */
  const stamp = (records: ClosingRecords) => ({
    by: records.team?.member ?? actor(),
    at: context.now().toISOString(),
  })

  /** The report a close writes (decision 141): every line, exception and explanation main holds. */
  async function reportOf(
    done: Reconciled,
    records: ClosingRecords,
    close: { by: string; at: string },
  ): Promise<ReconciliationReport> {
    const profile = (await context.profiles.list()).profiles.find((known) => known.id === done.profileId)
    const recorded = records.period(done.key)
    return reconciliationReportOf({
      profile: { id: done.profileId, name: profile?.name ?? done.profileId },
      mode: done.mode as ProfileMode,
      period: done.period,
      readAt: done.readAt,
      close,
      lines: done.lines,
      exceptions: done.exceptions,
      explanations: recorded.explanations,
      history: recorded.events,
      accounts: await context.profiles.ledgerAccounts(done.profileId),
      feeBorneBy: feeBorneByOf(done),
    })
  }

  /** The closed period's report file of one kind, as its close recorded it. */
  async function closedReport(format: 'pdf' | 'xlsx'): Promise<{ name: string; bytes: Buffer }> {
    const done = current()
    const state = closeStateOf(await recordsOf(done), done)
    const report = state.report
    if (!report)
      throw new AppFailure(
        'conflict',
        'The reconciliation report is written when the period closes: explain every exception and close it first.',
      )
    const name = report[format]
    try {
      return { name, bytes: await readClosingReport(reportFolderOf(context.userDataDir, done), name) }
    } catch (error) {
      // In team mode (decision 149) the report is written on the desk that closed the period.
      if (!done.team || !(error instanceof AppFailure)) throw error
      throw new AppFailure(
        'not_found',
        `The report ${name} was written on the desk of ${state.closedBy ?? 'the member who closed the period'}, which closed it: save it there, or reopen the period and close it again here.`,
      )
    }
  }
  const periodName = (done: Reconciled) =>
    `Reconciliation ${done.period.currency} ${new Date(done.period.from).toISOString().slice(0, 10)} to ${new Date(done.period.to).toISOString().slice(0, 10)}`

  return {
    handlers: {
      'reconciliation:state': () => view,
      'reconciliation:start': (period) => begin(period, null),
      'reconciliation:startFile': async (period) => {
        if (running)
          throw new AppFailure('conflict', 'A period is being reconciled: cancel it or wait for it to finish.')
        const path = await context.desktop.dialogs.chooseOpenPath({
          title: 'Reconcile an exported history file offline',
          filters: HISTORY_FILES,
        })
        return path === null ? view : begin(period, path)
      },
      'reconciliation:cancel': () => {
        running?.abort()
        return view
      },
      'reconciliation:explain': async (input) => {
        const done = current()
        refuseSecret(input.note, 'note')
        const records = await recordsOf(done)
        await explainException(records, done, input, stamp(records))
        return refreshed(done)
      },
      'reconciliation:close': async () => {
        const done = current()
        refuseOffline(done)
        const records = await recordsOf(done)
        assertClosable(records, done)
        // The report first (decision 141): a close is recorded only with its report written.
        closing = true
        try {
          const close = stamp(records)
          const files = await writeClosingReport(
            reportFolderOf(context.userDataDir, done),
            await reportOf(done, records, close),
            { issuedAt: context.now() },
          )
          await closePeriod(records, done, close, files)
        } finally {
          closing = false
        }
        return refreshed(done)
      },
      'reconciliation:confirm': async ({ reference }) => {
        const done = current()
        const records = await recordsOf(done)
        if (!records.team)
          throw new AppFailure(
            'conflict',
            'A second member confirms an explanation in team mode only: on a desk alone the explanation is enough.',
          )
        confirmableOrRefuse(records, done, reference)
        await records.team.confirm(reference)
        return refreshed(done)
      },
      'reconciliation:reopen': async ({ reason }) => {
        const done = current()
        refuseSecret(reason, 'reason')
        const records = await recordsOf(done)
        await reopenPeriod(records, done, reason, stamp(records))
        return refreshed(done)
      },
      'reconciliation:exportJournal': async ({ format, sageDateOrder }) => {
        const done = current()
        refuseOffline(done)
        if (!(await recordsOf(done)).period(done.key).closed)
          throw new AppFailure(
            'conflict',
            'Journal entries are exported for a closed period: explain every exception and close the period first.',
          )
        const payouts = paidPayoutsOf(done.lines, feeBorneByOf(done))
        return exportJournalEntries(
          context,
          { format, periodName: periodName(done), ...(sageDateOrder ? { options: { sageDateOrder } } : {}) },
          payouts,
          await context.profiles.ledgerAccounts(done.profileId),
        )
      },
      'reconciliation:saveReport': async ({ format }) => {
        const { name, bytes } = await closedReport(format)
        return saveReportCopy(context, name, format, bytes)
      },
      'reconciliation:openReport': async () => {
        const { name, bytes } = await closedReport('pdf')
        return context.desktop.printer.printPdf({ title: name.replace(/\.pdf$/, ''), fileName: name, bytes })
      },
      'reconciliation:accounts': async () => context.profiles.ledgerAccounts(await activeProfileId()),
      'reconciliation:setAccounts': async (accounts) => {
        const problem = ledgerMappingProblem(accounts)
        if (problem) throw new AppFailure('bad_request', problem)
        return context.profiles.setLedgerAccounts(await activeProfileId(), accounts)
      },
      'reconciliation:exportAuditor': async () => {
        const done = current()
        const records = await recordsOf(done)
        const explanations = records.period(done.key).explanations
        return exportForAuditor(context, {
          periodName: periodName(done),
          exportedBy: records.team?.member ?? actor(),
          extra: {
            ...(done.team ? await teamTrailFiles(options.team!) : {}),
            'reconciliation.csv': reconciliationCsv(done.lines, explanations),
            'period-close.json': `${JSON.stringify(
              {
                profileId: done.profileId,
                mode: done.mode,
                period: done.period,
                close: closeStateOf(records, done),
                explanations: [...explanations.values()],
              },
              null,
              2,
            )}\n`,
          },
        })
      },
    },
    close: async () => {
      running?.abort()
    },
  }
}
