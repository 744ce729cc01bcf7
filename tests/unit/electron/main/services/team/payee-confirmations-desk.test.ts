/**
 * Team mode's confirmations from the desks (decision 135), against the real PostgreSQL and a
 * simulator: the preparer's desk shares each row's payee checks with the version, so the approver's
 * desk reads the same flags; the preparer's own Confirm is refused in plain words and records
 * nothing; another member's confirmation in the team database is taken into the preparer's copy
 * (who, how, when), after which the row is no longer held there, and the run is approved.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TeamConnectionDraft } from '../../../../../../shared/domain/team'
import { AppFailure } from '../../../../../../shared/result'
import { isHeld, payeeKeyOfRow } from '../../../../../../shared/bulk/payee-holds'
import { explainTripwire, type Tripwire } from '../../../../../../shared/payees/tripwires'
import { startSandbox, type RunningSandbox } from '../../../../../../electron/sandbox'
import { createTeamDatabase } from '../../../../../support/team-database'
import type { TeamDatabase, TeamMemberLogin } from '../../../../../support/team-database'
import { csvBytes, sheetOf } from '../bulk/run/harness'
import { releaseDesk } from './release-desk'
import type { ReleaseDesk } from './release-desk'

const KEY = 'sk_test_team_payee_confirmations'
let db: TeamDatabase
let sandbox: RunningSandbox
let alice: TeamMemberLogin // preparer
let bob: TeamMemberLogin // approver
const opened: ReleaseDesk[] = []

const draftFor = (member: TeamMemberLogin): TeamConnectionDraft => ({
  host: '127.0.0.1',
  port: db.server.port,
  database: db.database,
  user: member.login,
  caFile: null,
})

async function desk(member: TeamMemberLogin, payeesChecked?: (runId: string) => Promise<void>): Promise<ReleaseDesk> {
  const made = await releaseDesk({
    member,
    draft: draftFor(member),
    sandboxUrl: sandbox.url,
    secretKey: KEY,
    ...(payeesChecked ? { payeesChecked } : {}),
  })
  opened.push(made)
  return made
}

beforeAll(async () => {
  db = await createTeamDatabase('payee_desks', 'Payee team')
  await db.asOwner((c) => c.query(`SELECT payout_desk.set_threshold('NGN', '100000000.00')`))
  ;[alice, bob] = await Promise.all([
    db.addMember('alice', ['preparer'], 'Alice Preparer'),
    db.addMember('bob', ['approver'], 'Bob Approver'),
  ])
  sandbox = await startSandbox({ secretKey: KEY, encryptionKey: 'team-payee-test-encryption-key32', settleMs: 100 })
}, 60_000)

afterAll(async () => {
  await Promise.all(opened.map((made) => made.close()))
  await sandbox?.close()
})

describe('a changed account in a team run, from the desks', () => {
  it("the preparer cannot confirm it on their desk; the approver confirms it, the preparer's copy takes it, and the run is approved", async () => {
    const [prep, appr] = await Promise.all([desk(alice), desk(bob)])
    const sheet = sheetOf(4, new Set(), 'PC')
    const view = await prep.runs.service.create({ result: sheet, bytes: csvBytes(sheet), currency: 'NGN' })
    const runId = view.id
    await prep.runs.service.toReview(runId)
    const changed: Tripwire = {
      kind: 'account_changed',
      account: '044 1000000002',
      lastAccounts: ['058 2000000002'],
      lastPaidAt: '2026-10-31T10:00:00.000Z',
      identifiedBy: 'name',
    }
    await prep.runs.service.setTripwires(runId, [
      { index: 1, tripwires: [changed, { kind: 'new_account', account: '044 1000000002' }] },
    ])
    const local = () => prep.runs.service.rows(runId)[1]!
    expect(isHeld(local())).toBe(true)

    const shared = await prep.submission.submitForApproval(runId)
    // Bob's desk reads the same flags, in the words Alice's desk showed.
    const seen = await appr.use(({ operations }) => operations.run(runId))
    expect(seen.payeeChecks).toMatchObject({ reported: true, held: 1, flaggedRows: 1 })
    const flagged = seen.payeeChecks!.rows[0]!
    expect(flagged).toMatchObject({
      reference: local().item.reference,
      payeeKey: payeeKeyOfRow(local()),
      heldFor: ['account_changed'],
      held: true,
      confirmation: null,
    })
    expect(flagged.tripwires).toEqual([
      { kind: 'account_changed', words: explainTripwire(changed) },
      { kind: 'new_account', words: explainTripwire({ kind: 'new_account', account: '044 1000000002' }) },
    ])

    // Alice's Confirm goes to the team database, which refuses her: she is told why, nothing is recorded.
    const refused = await prep.submission
      .confirmingPayee(runId, 1, { method: 'signed_letter', note: 'Letter' })
      .catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(AppFailure)
    expect((refused as AppFailure).code).toBe('forbidden')
    expect((refused as AppFailure).message).toBe(
      `You prepared this run, so you cannot confirm its changed or shared accounts: another member of the team confirms sheet row ${local().item.row} on the Approvals screen before the run is approved.`,
    )
    expect(isHeld(local())).toBe(true)
    expect(prep.runs.service.stateOf(runId).confirmations ?? []).toEqual([])

    // Bob confirms it in the team database; Alice's copy takes it, with who, how and when.
    await appr.use(({ operations }) =>
      operations.confirmPayee({
        runId,
        version: shared.version,
        position: flagged.position,
        method: 'called_number_on_file',
        note: 'Called the number on the 2025 contract',
      }),
    )
    expect(await prep.submission.adoptConfirmations(runId)).toBe(1)
    expect(isHeld(local())).toBe(false)
    expect(local().confirmation).toMatchObject({
      method: 'called_number_on_file',
      note: 'Called the number on the 2025 contract',
      by: bob.login,
      member: bob.login,
      runId,
      row: local().item.row,
      kinds: ['account_changed'],
    })
    expect(prep.runs.service.stateOf(runId).confirmations).toHaveLength(1)
    expect(await prep.submission.adoptConfirmations(runId)).toBe(0) // taken once

    // Sharing again changes nothing: the checks are the version's, the confirmation the team's.
    expect((await prep.submission.submitForApproval(runId)).version).toBe(shared.version)
    const approved = await appr.use(({ operations }) =>
      operations.approveRun({
        runId,
        version: shared.version,
        contentHash: shared.contentHash,
        typedTotal: shared.total,
      }),
    )
    expect(approved.state).toBe('approved')
  }, 60_000)

  it("a run not shared yet cannot be confirmed on the preparer's desk in team mode", async () => {
    const prep = await desk(alice)
    const sheet = sheetOf(2, new Set(), 'PN')
    const view = await prep.runs.service.create({ result: sheet, bytes: csvBytes(sheet), currency: 'NGN' })
    await prep.runs.service.toReview(view.id)
    await prep.runs.service.setTripwires(view.id, [
      {
        index: 0,
        tripwires: [
          { kind: 'shared_account', account: '044 1000000001', others: [{ name: 'Payee 9', where: 'book' }] },
        ],
      },
    ])
    const refused = await prep.submission
      .confirmingPayee(view.id, 0, { method: 'in_person' })
      .catch((error: unknown) => error)
    expect((refused as AppFailure).code).toBe('forbidden')
    expect((refused as AppFailure).message).toMatch(
      /submit the run for approval, and another member confirms sheet row \d+/,
    )
  }, 60_000)

  it("a run shared while the payee book is still checking it carries the book's checks, so a rejected version is not sent again unchanged (decision 169)", async () => {
    // The book's check of the run lands a moment after the names are back, as on a busy desk.
    let landed: () => void = () => undefined
    const checking = new Promise<void>((resolve) => (landed = resolve))
    const prep = await desk(alice, () => checking)
    const appr = await desk(bob)
    const sheet = sheetOf(3, new Set(), 'PL')
    const view = await prep.runs.service.create({ result: sheet, bytes: csvBytes(sheet), currency: 'NGN' })
    const runId = view.id
    await prep.runs.service.toReview(runId)
    const sharing = prep.submission.submitForApproval(runId)
    await new Promise((resolve) => setTimeout(resolve, 100))
    await prep.runs.service.setTripwires(runId, [
      {
        index: 2,
        tripwires: [
          { kind: 'shared_account', account: '044 1000000003', others: [{ name: 'Payee 9', where: 'book' }] },
        ],
      },
    ])
    landed()
    const shared = await sharing
    expect(shared.state).toBe('awaiting_approval')
    expect(shared.payeeChecks).toMatchObject({ held: 1, flaggedRows: 1 })

    await appr.use(({ operations }) => operations.rejectRun({ runId, version: shared.version, reason: 'Wrong month' }))
    // Nothing changed since: the rejected version is refused, not shared again as a new one.
    const refused = await prep.submission.submitForApproval(runId).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(AppFailure)
    expect((refused as AppFailure).code).toBe('conflict')
    const seen = await appr.use(({ operations }) => operations.run(runId))
    expect(seen).toMatchObject({ version: shared.version, state: 'rejected' })
  }, 60_000)
})
