/**
 * The team service as a desk uses it: a profile joined to a team (password in the real keychain,
 * never in settings.json nor the log), who it is, two desks sharing runs, approvals, claims and the
 * payment memory, and a connection lost (cut, or silently frozen) noticed at once: nothing new
 * claimed until it is back. Against the run's real PostgreSQL, through a loopback TCP proxy where
 * the network must break.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TeamConnectionDraft } from '../../../../../../shared/domain/team'
import { alreadyPaidWarnings } from '../../../../../../shared/bulk/journal-match'
import { AppFailure } from '../../../../../../shared/result'
import { SETTINGS_FILE_NAME } from '../../../../../../electron/main/services/settings/settings-store'
import type { TeamDesk } from '../../../../../../electron/main/services/team/team-service'
import { TEAM_SCHEMA_VERSION } from '../../../../../../electron/main/services/team/team-schema'
import { asSuperuser } from '../../../../../support/postgres'
import { startTcpProxy } from '../../../../../support/tcp-proxy'
import type { TcpProxy } from '../../../../../support/tcp-proxy'
import { createTeamDatabase } from '../../../../../support/team-database'
import type { TeamDatabase, TeamMemberLogin } from '../../../../../support/team-database'
import { deskWithTeam } from './harness'
import type { DeskUnderTest } from './harness'
import { sampleContent, totalOf } from './fixtures'

let db: TeamDatabase
let alice: TeamMemberLogin // preparer
let bob: TeamMemberLogin // approver
let carol: TeamMemberLogin // approver
const opened: DeskUnderTest[] = []
const proxies: TcpProxy[] = []

const draftFor = (member: { login: string } | { user: string }, port = db.server.port): TeamConnectionDraft => ({
  host: '127.0.0.1',
  port,
  database: db.database,
  user: 'login' in member ? member.login : member.user,
  caFile: null,
})

async function desk(member: TeamMemberLogin, port?: number): Promise<DeskUnderTest> {
  const made = await deskWithTeam(draftFor(member, port), member.password)
  opened.push(made)
  return made
}

function failureOf(error: unknown): AppFailure {
  expect(error).toBeInstanceOf(AppFailure)
  return error as AppFailure
}

const use = <T>(made: DeskUnderTest, work: (desk: TeamDesk) => Promise<T>) => made.team.withDesk('testing', work)

beforeAll(async () => {
  db = await createTeamDatabase('service', 'Lagos payouts')
  await db.asOwner((c) => c.query(`SELECT payout_desk.set_threshold('NGN', '1000000.00')`))
  ;[alice, bob, carol] = await Promise.all([
    db.addMember('alice', ['preparer'], 'Alice Preparer'),
    db.addMember('bob', ['approver'], 'Bob Approver'),
    db.addMember('carol', ['approver'], 'Carol Approver'),
  ])
})

afterAll(async () => {
  await Promise.all(opened.map((made) => made.close()))
  await Promise.all(proxies.map((proxy) => proxy.close()))
})

describe('joining a team', () => {
  it('keeps the password in the keychain, never in settings.json or the log, and connects as the member', async () => {
    const made = await desk(alice)
    const settingsText = await readFile(join(made.dir, SETTINGS_FILE_NAME), 'utf8')
    expect(settingsText).toContain(db.database)
    expect(settingsText).not.toContain(alice.password)
    const before = await made.team.status()
    expect(before).toMatchObject({
      state: 'disconnected',
      connection: { tls: 'none', passwordConfigured: true, user: alice.login },
    })

    const status = await made.team.connect()
    expect(status.state).toBe('connected')
    expect(status.identity).toMatchObject({
      team: { name: 'Lagos payouts' },
      member: { login: alice.login, displayName: 'Alice Preparer', roles: ['preparer'] },
      deskId: before.connection?.deskId,
      schemaVersion: TEAM_SCHEMA_VERSION,
    })
    // Each event carries the state of its moment, in order.
    await expect.poll(() => made.statuses.map((s) => s.state)).toEqual(['connecting', 'connected'])
    // The password is registered with the log's masking: even a line that held it shows none of it.
    made.log.warn(`connecting with ${alice.password}`)
    expect(made.logLines.at(-1)).toContain('connecting with')
    expect(made.logLines.join('\n')).not.toContain(alice.password)
  })

  it('is refused with a clear reason for a wrong password, and for the owner role that desks never use', async () => {
    const wrong = await deskWithTeam(draftFor(alice), 'not-the-password')
    opened.push(wrong)
    const refused = failureOf(await wrong.team.connect().catch((error: unknown) => error))
    expect(refused).toMatchObject({
      code: 'forbidden',
      message: 'The team database refused the login: wrong user name or password.',
    })
    expect((await wrong.team.status()).state).toBe('disconnected')
    expect(refused.message).not.toContain('not-the-password')

    const owner = await deskWithTeam(draftFor(db.owner), db.owner.password)
    opened.push(owner)
    const notMember = failureOf(await owner.team.connect().catch((error: unknown) => error))
    expect(notMember.code).toBe('forbidden')
    expect(notMember.message).toMatch(/is not an active member of this team/)
  })

  it('a profile without a team stays solo: nothing is asked of any database', async () => {
    const solo = await deskWithTeam(null)
    opened.push(solo)
    expect(await solo.team.status()).toMatchObject({ state: 'solo', connection: null })
    expect(await solo.team.isTeamMode()).toBe(false)
    const refused = failureOf(await solo.team.withDesk('claiming', async () => 1).catch((error: unknown) => error))
    expect(refused.code).toBe('team_offline')
    expect(failureOf(await solo.team.connect().catch((error: unknown) => error)).code).toBe('not_found')
  })
})

describe('two desks, one team', () => {
  it('prepare on one desk, approve and release on another; the first hears every step and remembers what was paid', async () => {
    const preparerDesk = await desk(alice)
    const approverDesk = await desk(bob)
    await preparerDesk.team.connect()
    await approverDesk.team.connect()

    const content = sampleContent(3, '1250.00')
    const runId = `svc-${Date.now()}`
    const created = await use(preparerDesk, ({ operations }) =>
      operations.createRun({ runId, label: 'March salaries', content }),
    )
    // Asked again (a reply lost with the connection), the same run comes back: nothing doubles.
    const again = await use(preparerDesk, ({ operations }) =>
      operations.createRun({ runId, label: 'March salaries', content }),
    )
    expect(again.contentHash).toBe(created.contentHash)
    await use(preparerDesk, ({ operations }) =>
      operations.submitRun({ runId, version: 1, contentHash: created.contentHash }),
    )

    await expect.poll(() => approverDesk.changes.map((change) => change.kind)).toContain('run_submitted')
    const awaiting = await use(approverDesk, ({ operations, identity }) =>
      operations.runs('awaiting_me', identity.member),
    )
    expect(awaiting.map((run) => run.runId)).toContain(runId)
    const approved = await use(approverDesk, ({ operations }) =>
      operations.approveRun({ runId, version: 1, contentHash: created.contentHash, typedTotal: totalOf(content) }),
    )
    expect(approved.state).toBe('approved')

    // The releasing desk sends what the team stores, recomputing its hash in the claim.
    const stored = await use(approverDesk, ({ operations }) => operations.runContent(runId, 1))
    expect(stored.contentHash).toBe(created.contentHash)
    const claim = await use(approverDesk, ({ operations }) =>
      operations.claim({
        runId,
        version: 1,
        content: stored,
        reference: `${runId}-B1`,
        kind: 'batch',
        payouts: stored.rows.map((row) => row.reference),
      }),
    )
    expect(claim).toMatchObject({
      grant: 'new',
      mustVerifyFirst: false,
      deskId: (await approverDesk.team.status()).connection?.deskId,
    })
    const done = await use(approverDesk, ({ operations }) =>
      operations.recordResults({
        reference: claim.reference,
        results: stored.rows.map((row) => ({ reference: row.reference, outcome: 'paid' as const })),
      }),
    )
    expect(done.state).toBe('done')

    await expect.poll(() => preparerDesk.changes.map((change) => change.kind)).toContain('run_completed')
    const run = await use(preparerDesk, ({ operations }) => operations.run(runId))
    expect(run).toMatchObject({ state: 'completed', preparedBy: alice.login, releasedBy: [bob.login] })
    expect(run.approvals.map((a) => a.by)).toEqual([bob.login])

    // "Already paid in the March salaries run" on the preparer's desk, for a payout it never sent itself.
    const memory = await use(preparerDesk, ({ operations }) => operations.paymentMemory('test'))
    const nextSheet = [{ row: 2, ...content.rows[1]!, reference: 'APRIL-0001' }]
    const warnings = alreadyPaidWarnings(nextSheet, memory, new Date())
    expect(warnings).toHaveLength(1)
    expect(warnings[0]!.message).toMatch(
      /^Already paid in the "March salaries" run on .* \(same bank, account and amount; reference /,
    )
    const recent = await use(preparerDesk, ({ operations }) => operations.recentPayouts(10))
    expect(recent.filter((payout) => payout.runId === runId).map((payout) => payout.outcome)).toEqual([
      'paid',
      'paid',
      'paid',
    ])

    const verification = await use(preparerDesk, ({ operations }) => operations.verifyAudit())
    expect(verification).toMatchObject({ agree: true, desk: { ok: true }, server: { ok: true } })
    expect(verification.desk.checked).toBe(verification.server.checked)
  })
})

describe('losing the connection', () => {
  async function releasingDesk(member: TeamMemberLogin) {
    const proxy = await startTcpProxy(db.server.host, db.server.port)
    proxies.push(proxy)
    const made = await desk(member, proxy.port)
    await made.team.connect()
    // An approved run, ready to be claimed.
    const preparer = await desk(alice)
    await preparer.team.connect()
    const content = sampleContent(2)
    const runId = `loss-${Date.now()}-${member.login.slice(-5)}`
    const run = await use(preparer, ({ operations }) => operations.createRun({ runId, label: 'Loss test', content }))
    await use(preparer, ({ operations }) => operations.submitRun({ runId, version: 1, contentHash: run.contentHash }))
    const checker = member === bob ? carol : bob
    const checkerDesk = await desk(checker)
    await checkerDesk.team.connect()
    await use(checkerDesk, ({ operations }) =>
      operations.approveRun({ runId, version: 1, contentHash: run.contentHash, typedTotal: totalOf(content) }),
    )
    const claimRequest = {
      runId,
      version: 1,
      content,
      reference: `${runId}-B1`,
      kind: 'batch' as const,
      payouts: content.rows.map((row) => row.reference),
    }
    return { proxy, made, claimRequest }
  }

  it('cut: noticed at once, nothing is claimed meanwhile, and the desk reconnects by itself', async () => {
    const { proxy, made, claimRequest } = await releasingDesk(bob)
    const lost = made.waitForState('lost', 3_000)
    const cutAt = Date.now()
    await proxy.cut()
    const status = await lost
    expect(Date.now() - cutAt).toBeLessThan(2_000)
    expect(status.message).toMatch(/The connection to the team database was lost/)
    const refused = failureOf(
      await made.team.withDesk('claiming', (d) => d.operations.claim(claimRequest)).catch((e: unknown) => e),
    )
    expect(refused.code).toBe('team_offline')
    expect(refused.message).toMatch(/nothing new is claimed/)
    // While the server cannot be reached, the desk stays lost and keeps trying.
    await new Promise((done) => setTimeout(done, 800))
    expect((await made.team.status()).state).toBe('lost')

    const back = made.waitForState('connected', 10_000)
    await proxy.restore()
    await back
    expect(made.changes.map((change) => change.kind)).toContain('reconnected')
    const claim = await made.team.withDesk('claiming', (d) => d.operations.claim(claimRequest))
    expect(claim.grant).toBe('new')
  })

  it('frozen (a silent partition): the health check notices within its timeout', async () => {
    const { proxy, made, claimRequest } = await releasingDesk(carol)
    const claim = await made.team.withDesk('claiming', (d) => d.operations.claim(claimRequest))
    const lost = made.waitForState('lost', 5_000)
    const frozeAt = Date.now()
    proxy.freeze()
    const status = await lost
    // healthIntervalMs 200 + healthTimeoutMs 800 in these tests.
    expect(Date.now() - frozeAt).toBeLessThan(3_000)
    expect(status.message).toMatch(/health check failed/)
    expect(
      failureOf(
        await made.team
          .withDesk('renewing', (d) => d.operations.renewClaim({ reference: claim.reference }))
          .catch((e: unknown) => e),
      ).code,
    ).toBe('team_offline')
    await proxy.cut()
    const back = made.waitForState('connected', 10_000)
    await proxy.restore()
    await back
    // What it held is still its own: asking again renews it.
    const renewed = await made.team.withDesk('claiming', (d) => d.operations.claim(claimRequest))
    expect(renewed.grant).toBe('renewed')
  })

  it('terminated by the server (pg_terminate_backend): noticed and reconnected', async () => {
    const made = await desk(carol)
    await made.team.connect()
    const lost = made.waitForState('lost', 3_000)
    await asSuperuser(db.server, (client) =>
      client.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = $1 AND datname = $2`, [
        carol.login,
        db.database,
      ]),
    )
    await lost
    await made.waitForState('connected', 10_000)
  })
})
