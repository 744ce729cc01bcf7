/**
 * Where an exception's "Show it" leads (decision 141): our record where there is one (a single
 * payout's journal record on the Payouts screen, its receipt open; a run's row on the Bulk payouts
 * screen, that run open and only that row shown), else the service's payout on the History screen,
 * searched by its reference on its day, in its currency. Each target screen reads its query once it is shown.
 */
import type { RouteLocationRaw } from 'vue-router'
import type { ReconLine } from '../../shared/reconciliation/period-match'
import { historyDateMs } from '../../shared/domain/history'

export type ShowItKind = 'payout' | 'run' | 'history'

export interface ShowItTarget {
  kind: ShowItKind
  /** What the button says it leads to. */
  label: string
  to: RouteLocationRaw
}

export function showItTarget(line: ReconLine): ShowItTarget {
  const source = line.ours?.source
  if (source?.kind === 'payout')
    return {
      kind: 'payout',
      label: `Show the journal record of payout ${line.reference}`,
      to: { name: 'payouts', query: { show: line.reference } },
    }
  if (source)
    return {
      kind: 'run',
      label: `Show row ${line.reference} in run ${source.runId}`,
      to: { name: 'bulk', query: { run: source.runId, row: line.reference } },
    }
  // The day it was made, as an instant: the History screen shows that day on this computer's calendar.
  const at = line.service ? historyDateMs(line.service.createdAt) : Number.NaN
  return {
    kind: 'history',
    label: `Show payout ${line.reference} in the service's history`,
    to: {
      name: 'history',
      query: {
        search: line.reference,
        currency: line.currency.toUpperCase(),
        ...(Number.isFinite(at) ? { at: String(at) } : {}),
      },
    },
  }
}

/** A query value as one string (vue-router gives arrays for repeated keys), or null. */
export function queryText(value: unknown): string | null {
  const first = Array.isArray(value) ? value[0] : value
  return typeof first === 'string' && first.trim() !== '' ? first : null
}
