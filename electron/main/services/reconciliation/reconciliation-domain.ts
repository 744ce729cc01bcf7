/**
 * The reconciliation channels (decision 118): a period of the active profile reconciled in main,
 * one at a time, its progress as events and a Cancel between pages or verifies. Our records are the
 * journal's single payouts and the sent rows of this profile's runs in the same mode; the service's
 * are every payout its history shows for the period.
 */
import type { HistoryCurrency } from '../../../../shared/domain/history'
import type { reconciliationChannels } from '../../../../shared/ipc/channels/reconciliation'
import { exceptionsOf } from '../../../../shared/reconciliation/period-match'
import type {
  ReconciliationPeriod,
  ReconciliationProgress,
  ReconciliationView,
} from '../../../../shared/reconciliation/reconciliation-view'
import { EXCEPTIONS_SHOWN } from '../../../../shared/reconciliation/reconciliation-view'
import { AppFailure } from '../../../../shared/result'
import type { RunService } from '../bulk/runs'
import type { DomainService } from '../domain-service'
import type { ServiceContext } from '../service-context'
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

export function createReconciliationDomain(
  context: Pick<ServiceContext, 'apiFor' | 'emit' | 'journal' | 'now' | 'log'>,
  options: { runs(): Promise<Pick<RunService, 'list' | 'rows' | 'stateOf'>> },
): DomainService<keyof typeof reconciliationChannels> {
  const reader = createPeriodReader({ now: context.now })
  let view: ReconciliationView = { running: false, progress: null, cancelled: false, error: null, result: null }
  let running: AbortController | null = null

  const progress = (next: ReconciliationProgress) => {
    view = { ...view, progress: next }
    context.emit('reconciliation:progress', next)
  }

  async function reconcile(period: ReconciliationPeriod, signal: AbortSignal): Promise<void> {
    const { profileId, mode, api } = await context.apiFor()
    const scope = { profileId, mode, ...period }
    let pages = 0
    let payouts = 0
    const read = await reader.read(
      api.history,
      scope,
      (p) => {
        pages = p.pages
        payouts = p.payouts
        progress({ stage: 'reading', pages, payouts, verified: 0, toVerify: 0 })
      },
      signal,
    )
    if (!read) return
    const ours = ourPayoutsOf(
      context.journal.list({ kind: 'payout' }),
      scope,
      sentBulkRows(await options.runs(), context.journal, scope),
    )
    const result = await reconcileWithVerifies(api, read.payouts, ours, {
      now: context.now,
      signal,
      onVerified: (verified, toVerify) =>
        progress({ stage: 'verifying', pages: read.pages, payouts: read.payouts.length, verified, toVerify }),
    })
    if (signal.aborted) return
    const exceptions = exceptionsOf(result)
    view = {
      ...view,
      result: {
        profileId,
        mode,
        period,
        readAt: context.now().toISOString(),
        cached: read.cached,
        lines: result.lines.length,
        totals: result.totals,
        exceptionCount: exceptions.length,
        exceptions: exceptions.slice(0, EXCEPTIONS_SHOWN),
      },
    }
    progress({ stage: 'done', pages: read.pages, payouts: read.payouts.length, verified: 0, toVerify: 0 })
  }

  return {
    handlers: {
      'reconciliation:state': () => view,
      'reconciliation:start': (period) => {
        if (running)
          throw new AppFailure('conflict', 'A period is being reconciled: cancel it or wait for it to finish.')
        const controller = new AbortController()
        running = controller
        view = { running: true, progress: null, cancelled: false, error: null, result: null }
        void reconcile(period, controller.signal)
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
      },
      'reconciliation:cancel': () => {
        running?.abort()
        return view
      },
    },
    close: async () => {
      running?.abort()
    },
  }
}
