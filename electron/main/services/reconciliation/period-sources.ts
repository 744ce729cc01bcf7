/**
 * Where a period's two sides come from (decisions 118, 141): the service's history (read page by
 * page, each record it lacks verified by reference) or an exported history file reconciled offline,
 * against our records of the period: the journal's single payouts and this profile's runs' sent
 * rows, per profile and mode. Nothing here holds a period or a close; the domain does.
 */
import type { HistoryCurrency } from '../../../../shared/domain/history'
import { reconcilePeriod } from '../../../../shared/reconciliation/period-match'
import type { OurPayout } from '../../../../shared/reconciliation/period-match'
import type {
  ReconciliationPeriod,
  ReconciliationProgress,
  ReconciliationSource,
} from '../../../../shared/reconciliation/reconciliation-view'
import { AppFailure } from '../../../../shared/result'
import type { RunService } from '../bulk/runs'
import { readFileOffMain } from '../files'
import type { ServiceContext } from '../service-context'
import { offlineVerifies, payoutsOfFile } from './history-file'
import { ourPayoutsOf } from './our-records'
import type { SentBulkRow } from './our-records'
import { createPeriodReader } from './period-reader'
import { reconcileWithVerifies } from './reconcile-period'

/** The rows of this profile's runs (in its mode and the currency) that were sent in a batch the service did not refuse. */
export function sentBulkRows(
  runs: Pick<RunService, 'list' | 'rows' | 'stateOf'>,
  journal: Pick<ServiceContext['journal'], 'get'>,
  scope: { profileId: string; mode: string; currency: HistoryCurrency },
): SentBulkRow[] {
  const sent: SentBulkRow[] = []
  for (const summary of runs.list()) {
    if (summary.profileId !== scope.profileId || summary.mode !== scope.mode || summary.currency !== scope.currency)
      continue
    const batches = new Map(runs.stateOf(summary.id).batches.map((batch) => [batch.reference, batch]))
    for (const row of runs.rows(summary.id)) {
      const batch = row.batchReference ? batches.get(row.batchReference) : undefined
      // A batch the service refused outright (or one still planned) never made its payouts there.
      if (!batch || batch.state === 'refused' || batch.state === 'planned' || row.status === 'not_sent') continue
      const movement = journal.get(batch.reference)
      sent.push({
        reference: row.item.reference,
        runId: summary.id,
        batchReference: batch.reference,
        amount: row.item.amount,
        currency: summary.currency,
        status:
          row.status === 'success'
            ? 'paid'
            : row.status === 'failed'
              ? 'failed'
              : row.status === 'unknown'
                ? 'unknown'
                : 'open',
        fee: row.fee ?? null,
        sentAt: movement?.createdAt ?? summary.updatedAt,
        payee: row.item.customer_name,
      })
    }
  }
  return sent
}

/** One side of a period, read: the matched result and what the close needs to know of it. */
export interface PeriodRead {
  profileId: string
  mode: string
  result: ReturnType<typeof reconcilePeriod>
  /** Runs whose payee bore the fees (merchant_bears_cost false). */
  payeeBearsFees: ReadonlySet<string>
  cached: boolean
  pages: number
  source: ReconciliationSource
}

export interface PeriodSourcesOptions {
  runs(): Promise<Pick<RunService, 'list' | 'rows' | 'stateOf'>>
  /**
   * Records of the period sent by other desks of the team (decision 149), added to ours where this
   * desk has none of the same reference; none in solo mode.
   */
  teamRecords?(scope: { mode: string } & ReconciliationPeriod): Promise<OurPayout[]>
}

export function createPeriodSources(
  context: Pick<ServiceContext, 'apiFor' | 'journal' | 'now'> & {
    profiles: Pick<ServiceContext['profiles'], 'list'>
  },
  options: PeriodSourcesOptions,
  progress: (next: ReconciliationProgress) => void,
) {
  const reader = createPeriodReader({ now: context.now })

  /** Our records of the period: the journal's single payouts, the runs' sent rows and the team's (decisions 118, 149). */
  async function oursOf(scope: { profileId: string; mode: string } & ReconciliationPeriod) {
    const runs = await options.runs()
    const own = ourPayoutsOf(
      context.journal.list({ kind: 'payout' }),
      scope,
      sentBulkRows(runs, context.journal, scope),
    )
    const known = new Set(own.map((record) => record.reference))
    const team = options.teamRecords ? await options.teamRecords(scope) : []
    // This desk's own record of a payout wins: it holds the fee and the journal's verify.
    const ours = [...own, ...team.filter((record) => !known.has(record.reference))]
    const payeeBearsFees = new Set(
      runs
        .list()
        .filter((run) => runs.stateOf(run.id).merchantBearsCost === false)
        .map((run) => run.id),
    )
    return { ours, payeeBearsFees }
  }

  /** The period read from the service, each record it lacks verified by reference; null when cancelled. */
  async function fromService(period: ReconciliationPeriod, signal: AbortSignal): Promise<PeriodRead | null> {
    const { profileId, mode, api } = await context.apiFor()
    const scope = { profileId, mode, ...period }
    const read = await reader.read(
      api.history,
      scope,
      (p) => progress({ stage: 'reading', pages: p.pages, payouts: p.payouts, verified: 0, toVerify: 0 }),
      signal,
    )
    if (!read) return null
    const { ours, payeeBearsFees } = await oursOf(scope)
    const result = await reconcileWithVerifies(api, read.payouts, ours, {
      now: context.now,
      signal,
      onVerified: (verified, toVerify) =>
        progress({ stage: 'verifying', pages: read.pages, payouts: read.payouts.length, verified, toVerify }),
    })
    const source: ReconciliationSource = { kind: 'service' }
    return { profileId, mode, result, payeeBearsFees, cached: read.cached, pages: read.pages, source }
  }

  /**
   * The period read from an exported history file, offline (decision 141): the file read and bounded
   * in the file reader's worker, checked row by row, matched against the active profile's records;
   * those the file lacks stay unverified (no verify by reference without the network).
   */
  async function fromFile(period: ReconciliationPeriod, path: string, signal: AbortSignal): Promise<PeriodRead | null> {
    const list = await context.profiles.list()
    const profile = list.profiles.find((known) => known.id === list.activeId)
    if (!profile)
      throw new AppFailure('not_found', 'Choose a profile first: its journal is what the file is matched against.')
    const scope = { profileId: profile.id, mode: profile.mode, ...period }
    progress({ stage: 'reading', pages: 0, payouts: 0, verified: 0, toVerify: 0 })
    let reviewed
    try {
      reviewed = await readFileOffMain({ job: 'review', path }, signal)
    } catch (error) {
      if (signal.aborted) return null
      throw error
    }
    const file = payoutsOfFile(reviewed, period)
    const { ours, payeeBearsFees } = await oursOf(scope)
    const missing = reconcilePeriod(file.payouts, ours).toVerify
    const result = reconcilePeriod(
      file.payouts,
      ours,
      offlineVerifies(missing, file.source.fileName, context.now().toISOString()),
    )
    const source: ReconciliationSource = {
      kind: 'file',
      ...file.source,
      rows: file.rows,
      outside: file.outside,
      notInFile: missing.length,
    }
    return {
      profileId: profile.id,
      mode: profile.mode as string,
      result,
      payeeBearsFees,
      cached: false,
      pages: 0,
      source,
    }
  }

  return { fromService, fromFile }
}
