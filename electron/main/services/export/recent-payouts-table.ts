/**
 * "Recent payouts" as an export table: the journal's payout movements, newest first. The request
 * in the journal is already sanitised; the destination shows the bank or operator by name and the
 * account or number (never card data: payouts carry none).
 */
import type { ExportTable } from '../../../../shared/domain/export'
import { RECENT_PAYOUTS_EXPORT_COLUMNS, RECENT_PAYOUTS_EXPORT_TITLE } from '../../../../shared/domain/history'
import type { MovementView } from '../../../../shared/domain/journal'
import { isFinal } from '../../../../shared/domain/journal'
import type { InstitutionDirectory } from '../../../../shared/words/institutions'
import { destinationText } from '../../../../shared/words/institutions'

const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {}
const textOf = (value: unknown): string | null =>
  typeof value === 'string' || typeof value === 'number' ? String(value) : null

function destinationOf(destination: Record<string, unknown>, directory: InstitutionDirectory): string | null {
  const currency = textOf(destination.currency) ?? undefined
  const bank = record(destination.bank_account)
  if (Object.keys(bank).length > 0) {
    return destinationText(directory, {
      type: 'bank_account',
      institution: textOf(bank.bank) ?? '',
      account: textOf(bank.account) ?? '?',
      ...(currency ? { currency } : {}),
    })
  }
  const mobile = record(destination.mobile_money)
  if (Object.keys(mobile).length > 0) {
    return destinationText(directory, {
      type: 'mobile_money',
      institution: textOf(mobile.operator) ?? '',
      account: textOf(mobile.mobile_number) ?? '?',
    })
  }
  return null
}

/** The trace id of the last answer that carried one. */
function traceIdOf(movement: MovementView): string | null {
  for (const event of [...movement.timeline].reverse()) {
    const trace = textOf(event.data?.trace_id)
    if (trace) return trace
  }
  return null
}

export function recentPayoutsTable(movements: readonly MovementView[], directory: InstitutionDirectory): ExportTable {
  const newestFirst = [...movements].sort((a, b) => b.createdAt.localeCompare(a.createdAt))
  return {
    title: RECENT_PAYOUTS_EXPORT_TITLE,
    columns: RECENT_PAYOUTS_EXPORT_COLUMNS.map((column) => ({ ...column })),
    rows: newestFirst.map((movement) => {
      const destination = record(movement.request.destination)
      const customer = record(destination.customer)
      return {
        reference: movement.reference,
        status: movement.state,
        amount: textOf(destination.amount),
        currency: textOf(destination.currency),
        customer_name: textOf(customer.name),
        customer_email: textOf(customer.email),
        destination: destinationOf(destination, directory),
        narration: textOf(destination.narration),
        trace_id: traceIdOf(movement),
        profile: `${movement.profileId} (${movement.profileMode})`,
        date_created: movement.createdAt,
        date_completed: isFinal(movement.state) ? movement.updatedAt : null,
      }
    }),
    summary: { groupBy: ['status', 'currency'], amount: 'amount' },
  }
}
