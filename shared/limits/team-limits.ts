/**
 * A team's limits (decision 138) as the team database keeps them and a desk shows and checks them:
 * the same rules as a desk alone (decision 127), each with what a breach does (refused, or one more
 * approver), and the changes waiting for a second admin. Pure: the shapes main reads from the
 * database, the words for a change, and the desk's own check before a release leaves, in the words
 * of a desk alone (limit-rules.ts); the database checks the same again and has the last word.
 */
import { z } from 'zod'
import { toMinorUnits } from '../money'
import { limitRefusal, type Addition, type LimitRefusal, type SentTally } from './limit-rules'
import {
  LIMIT_KINDS,
  limitName,
  limitValueText,
  type LimitKind,
  type LimitRule,
  type PayoutLimits,
  type SendingHours,
} from './payout-limits'

export const BREACH_CHOICES = ['refuse', 'approver'] as const
/** What a breach does: refused, or released only once one more approver approved the run. */
export type BreachChoice = (typeof BREACH_CHOICES)[number]

export interface TeamLimitRule {
  kind: LimitKind
  currency: string
  value: string
  onBreach: BreachChoice
  proposedBy: string
  approvedBy: string
  setAt: string
}

export interface TeamSendingHours extends SendingHours {
  onBreach: BreachChoice
}

/** What a limit is or would be: a rule's value, the hours, or the zone; null when not set (removed). */
export type TeamLimitValue = { value: string; onBreach: BreachChoice } | TeamSendingHours | { timeZone: string } | null

/** A limit changed: `daily_total:NGN` (kind and currency), `hours` or `time_zone`. */
export type TeamLimitSubject = `${LimitKind}:${string}` | 'hours' | 'time_zone'

export interface TeamLimitChange {
  subject: TeamLimitSubject
  from: TeamLimitValue
  to: TeamLimitValue
  proposedBy: string
  proposedAt: string
}

export interface TeamLimitsView {
  rules: TeamLimitRule[]
  hours: TeamSendingHours | null
  timeZone: string
  /** Proposed by one admin, waiting for a second. */
  pending: TeamLimitChange[]
  /** What the reader released today per currency, as the database counts it. */
  sentToday: Array<{ currency: string; amount: string; count: number }>
}

const subjectSchema = z
  .string()
  .regex(/^((per_payout|daily_total|daily_count):[A-Z]{3}|hours|time_zone)$/, 'is not a team limit') as z.ZodType<
  TeamLimitSubject,
  string
>
const breach = z.enum(BREACH_CHOICES)
const valueSchema = z
  .union([
    z.strictObject({ value: z.string().min(1).max(20), onBreach: breach }),
    z.strictObject({ from: z.string(), to: z.string(), onBreach: breach }),
    z.strictObject({ timeZone: z.string().min(1).max(64) }),
  ])
  .nullable()

/** What a desk sends to propose or approve a change (the database checks the value itself). */
export const teamLimitChangeSchema = z.strictObject({ subject: subjectSchema, value: valueSchema })
export type TeamLimitChangeInput = z.infer<typeof teamLimitChangeSchema>

export const teamLimitsViewSchema = z.object({
  rules: z.array(
    z.object({
      kind: z.enum(LIMIT_KINDS),
      currency: z.string(),
      value: z.string(),
      onBreach: breach,
      proposedBy: z.string(),
      approvedBy: z.string(),
      setAt: z.string(),
    }),
  ),
  hours: z.object({ from: z.string(), to: z.string(), onBreach: breach }).nullable(),
  timeZone: z.string(),
  pending: z.array(
    z.object({
      subject: subjectSchema,
      from: valueSchema,
      to: valueSchema,
      proposedBy: z.string(),
      proposedAt: z.string(),
    }),
  ),
  sentToday: z.array(z.object({ currency: z.string(), amount: z.string(), count: z.number().int() })),
}) satisfies z.ZodType<TeamLimitsView, unknown>

/** "Daily total for NGN", "Sending hours", "Time zone of the limits". */
export function subjectName(subject: TeamLimitSubject): string {
  if (subject === 'hours') return 'Sending hours'
  if (subject === 'time_zone') return 'Time zone of the limits'
  const [kind, currency] = subject.split(':') as [LimitKind, string]
  return limitName(kind, currency)
}

/** A limit's value as people read it: "5,000,000.00, refused", "08:00 to 18:00, one more approver", "not set". */
export function limitValueWords(subject: TeamLimitSubject, value: TeamLimitValue): string {
  if (value === null) return 'not set'
  if ('timeZone' in value) return value.timeZone
  const choice = value.onBreach === 'refuse' ? 'refused' : 'one more approver'
  if ('from' in value) return `${value.from} to ${value.to}, ${choice}`
  const kind = subject.split(':')[0] as LimitKind
  return `${limitValueText(kind, value.value)}, ${choice}`
}

/** The team's limits whose breach does `choice`, as the rules of a desk alone. */
function limitsDoing(view: TeamLimitsView, choice: BreachChoice): PayoutLimits {
  return {
    rules: view.rules
      .filter((rule) => rule.onBreach === choice)
      .map((rule) => ({ kind: rule.kind, currency: rule.currency, value: rule.value }) as LimitRule),
    hours: view.hours && view.hours.onBreach === choice ? { from: view.hours.from, to: view.hours.to } : null,
    timeZone: view.timeZone,
  }
}

function sentOf(view: TeamLimitsView, currency: string): SentTally {
  const sent = view.sentToday.find((each) => each.currency === currency)
  return sent ? { amount: toMinorUnits(sent.amount), count: sent.count } : { amount: 0n, count: 0 }
}

export interface TeamRunApprovals {
  /** The approvals the run requires now (its total, and one more for a row above a per-payout maximum asking one). */
  required: number
  /** Who approved the current version. */
  approvedBy: readonly string[]
}

/**
 * Whether the reader may release `addition` (the rest of a run) under the team's limits, checked on
 * the desk before anything is claimed or sent: a limit the team refuses refuses it; one that asks
 * one more approver lets it through once members other than the reader gave one approval more than
 * the run's total requires. The words are a desk alone's, and say what the run still needs.
 */
export function teamLimitRefusal(
  view: TeamLimitsView,
  member: string,
  addition: Addition,
  approvals: TeamRunApprovals,
  now: Date,
): (LimitRefusal & { needsApprover: boolean }) | null {
  const sent = sentOf(view, addition.currency)
  const refused = limitRefusal(limitsDoing(view, 'refuse'), sent, addition, now)
  if (refused) return { ...refused, needsApprover: false }
  const asking = limitRefusal(limitsDoing(view, 'approver'), sent, addition, now)
  if (!asking) return null
  // The run's required count holds the extra approval already when a row is above a per-payout maximum asking one.
  const perPayout = view.rules.find(
    (rule) => rule.kind === 'per_payout' && rule.currency === addition.currency && rule.onBreach === 'approver',
  )
  const maximum = perPayout ? toMinorUnits(perPayout.value) : null
  const perPayoutAsks = maximum !== null && addition.amounts.some((amount) => amount > maximum)
  const base = perPayoutAsks ? approvals.required - 1 : approvals.required
  const needed = base + 1
  const others = approvals.approvedBy.filter((login) => login !== member).length
  if (others >= needed) return null
  return {
    ...asking,
    needsApprover: true,
    message: `${asking.message} The team asks one more approver for this: the run needs ${needed} ${needed === 1 ? 'approval' : 'approvals'} from members other than ${member}, and has ${others}.`,
  }
}
