/**
 * Desktop notifications of the team's changes that concern this member: a run awaits my approval;
 * a run I prepared was approved, rejected (with the reason) or paid. Each change is heard once
 * (the database's NOTIFY at commit) and read back from the team, so the words are the team's.
 */
import type { TeamChange, TeamRun } from '../../../../shared/domain/team'
import type { DesktopNotice } from '../../adapters/desktop'
import type { TeamDesk } from './team-service'
import { formatMoney } from '../../../../shared/money'
import { countOf } from '../../../../shared/words/counts'

export interface TeamNoticesDeps {
  desk<T>(work: (desk: TeamDesk) => Promise<T>): Promise<T>
  notify(notice: DesktopNotice): void
  log?: { warn(message: string, detail?: unknown): void }
}

const KINDS = new Set(['run_submitted', 'run_approved', 'run_rejected', 'run_completed'])

/** The notice a change means to `me`, or null when it is not theirs to hear. */
export function noticeFor(
  change: TeamChange,
  run: TeamRun,
  me: { login: string; roles: string[] },
): DesktopNotice | null {
  const mine = run.preparedBy === me.login || run.contributors.includes(me.login)
  const name = `${run.label} (${countOf(run.rows, 'payout')}, ${formatMoney(run.total, run.currency)})`
  switch (change.kind) {
    case 'run_submitted':
      if (mine || !me.roles.includes('approver') || change.actor === me.login) return null
      return { kind: 'info', title: 'A run awaits your approval', body: `${change.actor} submitted ${name}.` }
    case 'run_approved':
      if (!mine) return null
      return { kind: 'success', title: 'Your run was approved', body: `${name} is approved and can be released.` }
    case 'run_rejected':
      if (!mine) return null
      return {
        kind: 'failure',
        title: 'Your run was rejected',
        body: `${change.actor} rejected ${name}: ${run.rejection?.reason ?? ''}`.trim(),
      }
    case 'run_completed':
      if (!mine) return null
      return { kind: 'success', title: 'Your run was paid', body: `${name} was released and every payout settled.` }
    default:
      return null
  }
}

export function createTeamNotices(deps: TeamNoticesDeps) {
  const heardSeq = new Set<number>()
  const pending = new Set<Promise<unknown>>()
  return {
    /** Resolves once every notice asked for so far has been decided (tests). */
    settled: () => Promise.all([...pending]),
    heard(change: TeamChange): void {
      if (!KINDS.has(change.kind) || !change.runId || heardSeq.has(change.seq)) return
      heardSeq.add(change.seq)
      const runId = change.runId
      const done = deps
        .desk(async ({ operations, identity }) => {
          const run = await operations.run(runId)
          return noticeFor(change, run, { login: identity.member.login, roles: identity.member.roles })
        })
        .then((notice) => notice && deps.notify(notice))
        .catch((error: unknown) => deps.log?.warn(`No notification for ${change.kind} of ${runId}`, error))
        .finally(() => pending.delete(done))
      pending.add(done)
    },
  }
}
