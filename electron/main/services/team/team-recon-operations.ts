/**
 * A reconciled period in team mode over a live session (decision 149): the payouts every desk of
 * the team released, as reconciliation matches them, and the team's record of a period (its
 * alerts, explanations with their second member's confirmation, closes and reopenings). The
 * database keeps them per the desk's registered mode and enforces who may do what; this only
 * carries them and checks the answers.
 */
import { z } from 'zod'
import type { ProfileMode } from '../../../../shared/domain/profiles'
import { EXPLANATION_REASONS } from '../../../../shared/reconciliation/period-close'
import type { ExplanationReason } from '../../../../shared/reconciliation/period-close'
import type { OurPayout } from '../../../../shared/reconciliation/period-match'
import { read } from './team-answers'
import type { TeamSession } from './team-session'

const teamReconPeriodAnswer = z.object({
  closed: z.boolean(),
  explanations: z.array(
    z.object({
      reference: z.string(),
      class: z.string(),
      reason: z.enum(EXPLANATION_REASONS),
      note: z.string(),
      by: z.string(),
      at: z.string(),
      confirmedBy: z.string().nullable(),
      confirmedAt: z.string().nullable(),
    }),
  ),
  events: z.array(
    z.object({
      type: z.enum(['closed', 'reopened']),
      by: z.string(),
      at: z.string(),
      exceptions: z.number().int().nullable(),
      reason: z.string().nullable(),
      report: z.object({ pdf: z.string(), xlsx: z.string() }).nullable(),
    }),
  ),
  alerts: z.array(z.string()),
  awaitingSecond: z.array(z.string()),
})
export type TeamReconPeriod = z.infer<typeof teamReconPeriodAnswer>

const reconPayoutRow = z.object({
  reference: z.string(),
  run_id: z.string(),
  amount: z.string(),
  currency: z.string(),
  outcome: z.enum(['sent', 'accepted', 'unknown', 'paid', 'failed']),
  sent_at: z.string(),
  customer_name: z.string(),
  released_by: z.string(),
  desk_label: z.string().nullable(),
  fee: z.string().nullable(),
})

const STATUS_OF: Record<z.infer<typeof reconPayoutRow>['outcome'], OurPayout['status']> = {
  paid: 'paid',
  failed: 'failed',
  unknown: 'unknown',
  sent: 'open',
  accepted: 'open',
}

export function createTeamReconOperations(session: TeamSession, deskId: string) {
  const period = async (name: string, args: unknown[]) =>
    read(teamReconPeriodAnswer, await session.call(name, args), "the team's record of the period")
  return {
    /** Every payout any desk of the team released in `mode` and the currency, sent within the period. */
    async reconPayouts(scope: { mode: ProfileMode | string; currency: string; from: number; to: number }) {
      const rows = await session.rows(
        `SELECT reference, run_id, amount, currency, outcome, sent_at, customer_name, released_by, desk_label, fee
           FROM payout_desk.team_recon_payouts
          WHERE mode = $1 AND currency = $2 AND sent_time >= $3::timestamptz AND sent_time <= $4::timestamptz
          ORDER BY sent_time, reference`,
        [scope.mode, scope.currency, new Date(scope.from).toISOString(), new Date(scope.to).toISOString()],
      )
      return rows.map((row): OurPayout => {
        const payout = read(reconPayoutRow, row, "the team's payouts")
        return {
          reference: payout.reference,
          amount: payout.amount,
          currency: payout.currency,
          status: STATUS_OF[payout.outcome],
          // The fee the releasing desk recorded from the service's answer (decision 150), compared
          // with the service's as this desk's own records are; none recorded, the service's counts.
          fee: payout.fee,
          sentAt: payout.sent_at,
          payee: payout.customer_name,
          source: { kind: 'team', runId: payout.run_id, desk: payout.desk_label ?? payout.released_by },
        }
      })
    },
    reconPeriod: (key: string) => period('recon_period', [key, deskId]),
    reconRecordAlerts: (key: string, references: string[]) => period('recon_record_alerts', [key, references, deskId]),
    reconExplain: (key: string, input: { reference: string; state: string; reason: ExplanationReason; note: string }) =>
      period('recon_explain', [key, input.reference, input.state, input.reason, input.note, deskId]),
    reconConfirm: (key: string, reference: string) => period('recon_confirm', [key, reference, deskId]),
    reconClose: (
      key: string,
      input: { exceptions: number; serviceOnly: string[]; report: { pdf: string; xlsx: string } | null },
    ) =>
      period('recon_close', [
        key,
        input.exceptions,
        input.serviceOnly,
        input.report ? JSON.stringify(input.report) : null,
        deskId,
      ]),
    reconReopen: (key: string, reason: string) => period('recon_reopen', [key, reason, deskId]),
  }
}
