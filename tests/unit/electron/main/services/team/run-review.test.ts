/**
 * The review travels with each version (migration 005): what the preparer's desk showed (control
 * total, rows left out, name checks and who acknowledged the no-match names, fees) is stored with
 * the version it describes, read by approvers, refused from anyone but the version's maker or in
 * the wrong shape, and never part of the content hash. A review is fixed with its version: a
 * different one is a new version, which voids the approvals given. Against the real PostgreSQL.
 */
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TeamRun } from '../../../../../../shared/domain/team'
import type { RunRow, RunView } from '../../../../../../shared/domain/bulk-run'
import { reviewOfRun, reviewStory, type RunReviewFigures } from '../../../../../../shared/bulk/review-figures'
import { runContentHash } from '../../../../../../shared/team/run-content'
import { AppFailure } from '../../../../../../shared/result'
import { createTeamDatabase } from '../../../../../support/team-database'
import type { TeamDatabase } from '../../../../../support/team-database'
import { refusal, sampleContent, sqlDesk, totalOf } from './fixtures'
import type { SqlDesk } from './fixtures'
import { deskWithTeam } from './harness'
import type { DeskUnderTest } from './harness'

let db: TeamDatabase
let preparer: SqlDesk
let approver: SqlDesk
const closers: Array<() => Promise<void>> = []

/** A review as a preparer's desk makes it: 4 payouts, one no-match name acknowledged by Pat in Live. */
function sampleReview(overrides: Partial<RunReviewFigures> = {}): RunReviewFigures {
  return {
    mode: 'live',
    controlTotal: { sheet: '4000.00', computed: '4000.00', match: true },
    skipped: [{ row: 8, why: 'totals' }],
    excluded: { duplicateInSheet: 1, totalsOrNotes: 1, alreadyPaid: 0, byHand: 2 },
    errors: 0,
    names: { match: 2, closeMatch: 1, noMatch: 1, unchecked: 0, acknowledged: 1 },
    acknowledgements: [{ by: 'pat', at: '2026-03-01T10:00:00.000Z', rows: 1 }],
    noMatch: [
      {
        reference: 'X-0004',
        row: 5,
        sheetName: 'Payee 4',
        bankName: 'JOHN DOE',
        acknowledged: { by: 'pat', at: '2026-03-01T10:00:00.000Z' },
      },
    ],
    fees: {
      merchantBearsCost: false,
      basis: 3,
      estimate: { estimate: '40.00', low: '30.00', high: '50.00' },
      debit: { estimate: '4000.00', low: '4000.00', high: '4000.00' },
      chargeable: null,
    },
    ...overrides,
  }
}

const runOf = async (desk: SqlDesk, runId: string): Promise<TeamRun> =>
  (await desk.client.query<{ run: TeamRun }>('SELECT run FROM payout_desk.team_runs WHERE run_id = $1', [runId]))
    .rows[0]!.run

const newRunId = () => `rv-${randomBytes(4).toString('hex')}`

beforeAll(async () => {
  db = await createTeamDatabase('review')
  await db.asOwner((c) => c.query(`SELECT payout_desk.set_threshold('NGN', '1000000.00')`))
  const [p, a] = await Promise.all([
    db.addMember('pat', ['preparer'], 'Pat Preparer'),
    db.addMember('ann', ['approver'], 'Ann Approver'),
  ])
  preparer = await sqlDesk(db, p!)
  approver = await sqlDesk(db, a!)
  closers.push(
    () => preparer.close(),
    () => approver.close(),
  )
})

afterAll(async () => {
  for (const close of closers) await close()
})

describe('the review of a version, in the team database', () => {
  it('is written with the version on create and on every revise, and an approver reads it', async () => {
    const runId = newRunId()
    const content = sampleContent(4)
    const hash = await runContentHash(content)
    const review = sampleReview()
    await preparer.call('create_run', runId, 'March', preparer.deskId, content, hash, JSON.stringify(review))
    const seen = await runOf(approver, runId)
    expect(seen.review).toEqual(review)
    expect(seen.review?.names).toEqual({ match: 2, closeMatch: 1, noMatch: 1, unchecked: 0, acknowledged: 1 })
    expect(seen.review?.acknowledgements).toEqual([{ by: 'pat', at: '2026-03-01T10:00:00.000Z', rows: 1 }])

    const changed = { ...content, rows: content.rows.map((r, i) => (i === 0 ? { ...r, amount: '999.00' } : r)) }
    const second = sampleReview({ controlTotal: { sheet: '4000.00', computed: '3999.00', match: false } })
    await preparer.call('revise_run', runId, 1, preparer.deskId, changed, await runContentHash(changed), second)
    const after = await runOf(approver, runId)
    expect(after.version).toBe(2)
    expect(after.review?.controlTotal).toEqual({ sheet: '4000.00', computed: '3999.00', match: false })
  })

  it('is not part of the content hash: the same content hashes alike with any review, or none', async () => {
    const content = sampleContent(3)
    const hash = await runContentHash(content)
    const [withReview, without] = [newRunId(), newRunId()]
    const review = sampleReview({ names: { match: 3, closeMatch: 0, noMatch: 0, unchecked: 0, acknowledged: 0 } })
    await preparer.call('create_run', withReview, 'A', preparer.deskId, content, hash, JSON.stringify(review))
    await preparer.call('create_run', without, 'B', preparer.deskId, content, hash, null)
    expect((await runOf(approver, withReview)).contentHash).toBe(hash)
    expect((await runOf(approver, without)).contentHash).toBe(hash)
    // A version shared without a review (before 005, or from psql) reads as none, never as blanks.
    expect((await runOf(approver, without)).review).toBeNull()
  })

  it('changes only with a new version: a review-only change after approval voids the approval', async () => {
    const runId = newRunId()
    const content = sampleContent(4)
    const hash = await runContentHash(content)
    const before = sampleReview({
      names: { match: 3, closeMatch: 0, noMatch: 1, unchecked: 0, acknowledged: 0 },
      acknowledgements: [],
      noMatch: [],
    })
    await preparer.call('create_run', runId, 'March', preparer.deskId, content, hash, JSON.stringify(before))
    await preparer.call('submit_run', runId, 1, hash, preparer.deskId)
    await approver.call('approve_run', runId, 1, hash, totalOf(content), approver.deskId)
    expect((await runOf(approver, runId)).state).toBe('approved')
    // Asked again with another review for the same version (a retry of create): the first one stays.
    await preparer.call('create_run', runId, 'March', preparer.deskId, content, hash, JSON.stringify(sampleReview()))
    expect((await runOf(approver, runId)).review).toEqual(before)

    // The preparer acknowledges the no-match name: same content, another story, a new version.
    await preparer.call('revise_run', runId, 1, preparer.deskId, content, hash, JSON.stringify(sampleReview()))
    const after = await runOf(approver, runId)
    expect(after).toMatchObject({ version: 2, state: 'draft', contentHash: hash, approvals: [] })
    expect(after.review?.names.acknowledged).toBe(1)
    const voided = await approver.client.query(
      `SELECT details FROM payout_desk.audit_trail WHERE run_id = $1 AND kind = 'approval_voided'`,
      [runId],
    )
    expect(voided.rows).toHaveLength(1)
  })

  it('is refused from anyone but a preparer, and in the wrong shape, naming what is wrong', async () => {
    const content = sampleContent(4)
    const hash = await runContentHash(content)
    const review = JSON.stringify(sampleReview())
    const fromApprover = await refusal(
      approver.call('create_run', newRunId(), 'X', approver.deskId, content, hash, review),
    )
    expect(fromApprover.code).toBe('42501')

    const cases: Array<[unknown, RegExp]> = [
      ['[1, 2]', /must be an object/],
      [JSON.stringify({ ...sampleReview(), secret: 'x' }), /unknown field secret/],
      [JSON.stringify({ ...sampleReview(), mode: 'prod' }), /mode must be/],
      [
        JSON.stringify(sampleReview({ names: { match: 9, closeMatch: 0, noMatch: 0, unchecked: 0, acknowledged: 0 } })),
        /count 9 name checks for a version of 4 payouts/,
      ],
      [
        JSON.stringify(sampleReview({ controlTotal: { sheet: '4000', computed: '4000.00', match: true } })),
        /controlTotal must be/,
      ],
      [
        JSON.stringify({ ...sampleReview(), fees: { ...sampleReview().fees, merchantBearsCost: true } }),
        /another payer of the fees/,
      ],
      [
        JSON.stringify(
          sampleReview({
            noMatch: Array.from({ length: 51 }, () => sampleReview().noMatch[0]!),
          }),
        ),
        /at most 50 names/,
      ],
      [JSON.stringify({ ...sampleReview(), errors: -1 }), /errors must be a count/],
    ]
    for (const [bad, why] of cases) {
      const runId = newRunId()
      const refused = await refusal(preparer.call('create_run', runId, 'X', preparer.deskId, content, hash, bad))
      expect(refused.code, String(why)).toBe('PT400')
      expect(refused.message).toMatch(why)
      // Nothing of the run was kept: the version and its review are one transaction.
      const left = await approver.client.query('SELECT 1 FROM payout_desk.team_runs WHERE run_id = $1', [runId])
      expect(left.rows).toHaveLength(0)
    }
    // Too large as a whole.
    const huge = JSON.stringify({
      ...sampleReview(),
      noMatch: Array.from({ length: 50 }, (_, i) => ({
        ...sampleReview().noMatch[0]!,
        reference: `X-${i}`,
        sheetName: '€'.repeat(200),
        bankName: '€'.repeat(200),
        acknowledged: { by: 'p'.repeat(200), at: '2026-03-01T10:00:00.000Z' },
      })),
      acknowledgements: Array.from({ length: 50 }, () => ({ by: 'p'.repeat(200), at: 'x', rows: 1 })),
    })
    const tooLarge = await refusal(preparer.call('create_run', newRunId(), 'X', preparer.deskId, content, hash, huge))
    expect(tooLarge.message).toMatch(/larger than 64 KiB/)
  })
})

describe('the review through the team service', () => {
  it('a desk shares the review with its version and an approver desk reads it; a bad one is refused before it leaves', async () => {
    const prep: DeskUnderTest = await deskWithTeam(
      { host: '127.0.0.1', port: db.server.port, database: db.database, user: preparer.member.login, caFile: null },
      preparer.member.password,
    )
    const appr: DeskUnderTest = await deskWithTeam(
      { host: '127.0.0.1', port: db.server.port, database: db.database, user: approver.member.login, caFile: null },
      approver.member.password,
    )
    closers.push(prep.close, appr.close)
    await Promise.all([prep.team.connect(), appr.team.connect()])
    const runId = newRunId()
    const content = sampleContent(4)
    const review = sampleReview()
    await prep.team.withDesk('testing', ({ operations }) =>
      operations.createRun({ runId, label: 'March', content, review }),
    )
    const read = await appr.team.withDesk('testing', ({ operations }) => operations.run(runId))
    expect(read.review).toEqual(review)
    expect(reviewStory(read.review)).toBe(reviewStory(review))

    const bad = { ...review, names: { ...review.names, match: -1 } }
    const refused = await prep.team
      .withDesk('testing', ({ operations }) =>
        operations.createRun({ runId: newRunId(), label: 'X', content, review: bad }),
      )
      .catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(AppFailure)
    expect((refused as AppFailure).code).toBe('bad_request')
    expect((refused as AppFailure).message).toMatch(/names\.match/)
  })
})

describe('the review a desk makes of its run', () => {
  const row = (index: number, extra: Partial<RunRow>): RunRow => ({
    index,
    item: {
      row: index + 2,
      reference: `R-${index}`,
      amount: '100.00',
      bank_code: '044',
      account_number: '0123456789',
      customer_name: `Payee ${index}`,
      customer_email: '',
      narration: '',
    } as RunRow['item'],
    excluded: false,
    errors: [],
    warnings: [],
    resolution: 'matched',
    status: 'not_sent',
    ...extra,
  })

  it('counts every class and reason, lists the no-match names with who acknowledged them, and keeps the control total', () => {
    const rows = [
      row(0, {}),
      row(1, { resolution: 'mismatch', nameCheck: 'close_match', resolvedName: 'PAYE 1' }),
      row(2, { resolution: 'mismatch', nameCheck: 'no_match', resolvedName: 'JOHN DOE' }),
      row(3, {
        resolution: 'mismatch',
        nameCheck: 'no_match',
        resolvedName: 'JANE ROE',
        acknowledged: { by: 'pat', at: '2026-03-02T09:00:00.000Z' },
      }),
      row(4, { excluded: true, excludedWhy: 'duplicate_in_sheet' }),
      row(5, { excluded: true, excludedWhy: 'already_paid' }),
      row(6, { excluded: true }),
      row(7, { resolution: 'unchecked' }),
    ]
    const view = {
      mode: 'live',
      merchantBearsCost: true,
      counts: { errors: 0 },
      imported: {
        skipped: [{ row: 20, why: 'totals' }],
        control_total: { sheet: '600.00', computed: '500.00', match: false },
        bank_names: [],
      },
      fees: { basis: 2, fees: null, debit: null, chargeable: null, perPayout: null, currency: 'NGN' },
    } as unknown as RunView
    const review = reviewOfRun(view, rows)
    expect(review.names).toEqual({ match: 1, closeMatch: 1, noMatch: 2, unchecked: 1, acknowledged: 1 })
    expect(review.excluded).toEqual({ duplicateInSheet: 1, totalsOrNotes: 1, alreadyPaid: 1, byHand: 1 })
    expect(review.controlTotal).toEqual({ sheet: '600.00', computed: '500.00', match: false })
    expect(review.acknowledgements).toEqual([{ by: 'pat', at: '2026-03-02T09:00:00.000Z', rows: 1 }])
    expect(review.noMatch.map((n) => [n.sheetName, n.bankName, n.acknowledged?.by ?? null])).toEqual([
      ['Payee 2', 'JOHN DOE', null],
      ['Payee 3', 'JANE ROE', 'pat'],
    ])
    expect(review.fees).toMatchObject({ merchantBearsCost: true, basis: 2, estimate: null })
    // The fee estimate moves with every payout seen: it is not a new story.
    expect(reviewStory({ ...review, fees: { ...review.fees, basis: 9 } })).toBe(reviewStory(review))
    expect(reviewStory({ ...review, names: { ...review.names, acknowledged: 2 } })).not.toBe(reviewStory(review))
  })
})
