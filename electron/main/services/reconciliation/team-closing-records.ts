/**
 * A period's closing records in team mode (decision 149): the team's database, not this desk's
 * file, so every desk of the team sees the same explanations, closes and reopenings, each in the
 * team's hash-chained audit trail with the member who made it and when (the database's stamp,
 * never the desk's). Read once per action; each record is committed before the call answers.
 * A payout made by nobody in the team needs an explanation a second member confirmed: the
 * database refuses the close otherwise, whoever calls.
 */
import type { TeamOperations, TeamReconPeriod, TeamService } from '../team'
import type { OurPayout, ReconLine } from '../../../../shared/reconciliation/period-match'
import type { ReconciliationPeriod } from '../../../../shared/reconciliation/reconciliation-view'
import type { ClosingRecord, ClosingRecords, PeriodRecords } from './closing-records'

/** What the team's record of the period says, as the closing rules read it. */
export function periodRecordsOf(team: TeamReconPeriod): PeriodRecords {
  const waiting = new Set(team.awaitingSecond)
  return {
    closed: team.closed,
    explanations: new Map(
      team.explanations.map((explanation) => [
        explanation.reference,
        {
          reference: explanation.reference,
          reason: explanation.reason,
          note: explanation.note,
          by: explanation.by,
          at: explanation.at,
          needsSecond: explanation.class === 'service_only' || waiting.has(explanation.reference),
          confirmedBy: explanation.confirmedBy,
          confirmedAt: explanation.confirmedAt,
        },
      ]),
    ),
    events: team.events.map((event) => ({
      type: event.type,
      by: event.by,
      at: event.at,
      ...(event.reason !== null ? { reason: event.reason } : {}),
      ...(event.exceptions !== null ? { exceptions: event.exceptions } : {}),
      ...(event.report ? { report: event.report } : {}),
    })),
    awaitingSecond: team.awaitingSecond,
  }
}

type TeamReconOperations = Pick<
  TeamOperations,
  'reconPeriod' | 'reconRecordAlerts' | 'reconExplain' | 'reconConfirm' | 'reconClose' | 'reconReopen'
>

/**
 * The closing records of one reconciled period in the team: `first` is the team's record as just
 * read (or as recording this reconciliation's alerts left it); `use` runs one call on the
 * connected desk. The local stamp of a record is not sent: the database stamps who and when.
 */
export function teamClosingRecords(
  period: { key: string; exceptions: readonly ReconLine[] },
  first: TeamReconPeriod,
  member: string,
  use: <T>(during: string, work: (operations: TeamReconOperations) => Promise<T>) => Promise<T>,
): ClosingRecords {
  let records = periodRecordsOf(first)
  const stateOf = (reference: string) =>
    period.exceptions.find((line) => line.reference === reference)?.state ?? 'differs'
  async function record(record: ClosingRecord): Promise<TeamReconPeriod> {
    switch (record.type) {
      case 'explained':
        return use('recording the explanation in the team', (team) =>
          team.reconExplain(period.key, {
            reference: record.reference,
            state: stateOf(record.reference),
            reason: record.reason,
            note: record.note,
          }),
        )
      case 'closed':
        return use('closing the period in the team', (team) =>
          team.reconClose(period.key, {
            exceptions: record.exceptions,
            serviceOnly: period.exceptions
              .filter((line) => line.state === 'service_only')
              .map((line) => line.reference),
            report: record.report ?? null,
          }),
        )
      case 'reopened':
        return use('reopening the period in the team', (team) => team.reconReopen(period.key, record.reason))
    }
  }
  return {
    period: (key) =>
      key === period.key ? records : { explanations: new Map(), events: [], closed: false, awaitingSecond: [] },
    async append(next) {
      records = periodRecordsOf(await record(next))
    },
    damagedLines: [],
    team: {
      member,
      async confirm(reference) {
        records = periodRecordsOf(
          await use('confirming the explanation in the team', (team) => team.reconConfirm(period.key, reference)),
        )
      },
    },
  }
}

/** The team service as reconciliation uses it (decision 149). */
export type ReconTeam = Pick<TeamService, 'isTeamMode' | 'withDesk'>

/** The member this desk is in its team, or null on a desk alone (no team, or not team mode). */
export async function teamMemberOf(team: ReconTeam | undefined): Promise<string | null> {
  if (!team || !(await team.isTeamMode())) return null
  return team.withDesk('reading who you are in the team', async (desk) => desk.identity.member.login)
}

/** Every desk's released payouts of the period in team mode; none on a desk alone. */
export async function teamPayoutsOf(
  team: ReconTeam | undefined,
  scope: { mode: string } & ReconciliationPeriod,
): Promise<OurPayout[]> {
  if (!team || !(await team.isTeamMode())) return []
  return team.withDesk("reading the team's payouts of the period", (desk) => desk.operations.reconPayouts(scope))
}

/**
 * A period's records in team mode: the team's, read now (another desk may have explained,
 * confirmed or closed meanwhile); `alerts` are recorded first when this reading found them.
 */
export async function openTeamClosingRecords(
  team: ReconTeam,
  period: { key: string; exceptions: readonly ReconLine[] },
  alerts?: string[],
): Promise<ClosingRecords> {
  const { member, first } = await team.withDesk("reading the team's record of the period", async (desk) => ({
    member: desk.identity.member.login,
    first: alerts
      ? await desk.operations.reconRecordAlerts(period.key, alerts)
      : await desk.operations.reconPeriod(period.key),
  }))
  return teamClosingRecords(period, first, member, (during, work) =>
    team.withDesk(during, (desk) => work(desk.operations)),
  )
}
