/**
 * Benchmark: three desks releasing three runs of 10,000 rows at once, against one team database
 * (a real PostgreSQL, started for the benchmark) and one simulator in its own process with 100 ms
 * latency on the bulk endpoint. Each run's time (from Release until every batch is accepted: the
 * run materialised from the team's copy, its hash recomputed, every batch claimed in the database
 * before it leaves) is compared with the time one desk alone takes for a run of the same size
 * (target <= 1.2x). Prints the claim overhead per batch and the rows the simulator holds twice
 * (must be 0).
 * Run: npm run bench:team-release   (TEAM_RELEASE_ROWS=2000 for a shorter run)
 */
import { randomBytes } from 'node:crypto'
import type { TeamRunContent } from '../../shared/domain/team'
import { planBatchSizes } from '../../shared/domain/bulk-run'
import { DEFAULT_TEAM_TIMING } from '../../electron/main/services/team/team-service'
import { createTeamDatabase } from '../support/team-database'
import { deskWithTeam } from '../unit/electron/main/services/team/harness'
import { releaseDesk } from '../unit/electron/main/services/team/release-desk'
import type { ReleaseDesk } from '../unit/electron/main/services/team/release-desk'
import { csvBytes, sandboxAdmin, sheetOf, simulatorPayouts } from '../unit/electron/main/services/bulk/run/harness'
import { startBenchSandbox } from './bulk-bench-sandbox'

const ROWS = Number(process.env.TEAM_RELEASE_ROWS ?? 10_000)
const LATENCY_MS = Number(process.env.TEAM_RELEASE_LATENCY_MS ?? 100)
const KEY = 'sk_bench_team_release'

function contentOf(tag: string): TeamRunContent {
  const sheet = sheetOf(ROWS, new Set(), tag)
  return {
    currency: 'NGN',
    merchantBearsCost: false,
    description: `Bench ${tag}`,
    rows: sheet.items.map(({ row: _row, ...item }) => item),
  }
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? 0
}

async function main(): Promise<void> {
  const sandbox = await startBenchSandbox(KEY, 600_000)
  const db = await createTeamDatabase(`bench_${randomBytes(2).toString('hex')}`, 'Bench team')
  await db.asOwner((c) => c.query(`SELECT payout_desk.set_threshold('NGN', '999999999999.00')`))
  const preparerLogin = await db.addMember('prep', ['preparer'])
  const approvers = await Promise.all([1, 2, 3].map((n) => db.addMember(`rel${n}`, ['approver'])))
  const draft = (login: string) => ({
    host: '127.0.0.1',
    port: db.server.port,
    database: db.database,
    user: login,
    caFile: null,
  })
  const preparer = await deskWithTeam(draft(preparerLogin.login), preparerLogin.password, DEFAULT_TEAM_TIMING)
  await preparer.team.connect()
  const desks: ReleaseDesk[] = await Promise.all(
    approvers.map((member) =>
      // The app's own connection timing: a loaded machine must not read as a lost connection.
      releaseDesk({
        member,
        draft: draft(member.login),
        sandboxUrl: sandbox.url,
        secretKey: KEY,
        pollMs: 600_000,
        timing: DEFAULT_TEAM_TIMING,
      }),
    ),
  )
  try {
    await sandboxAdmin(sandbox.url, KEY, 'POST', '/__sandbox/balances', { currency: 'NGN', amount: '999999999999.00' })
    await sandboxAdmin(sandbox.url, KEY, 'POST', '/__sandbox/faults', {
      path: '/api/v1/transactions/disburse/bulk',
      kind: 'latency',
      ms: LATENCY_MS,
      count: 10_000,
    })
    // Four runs: one released alone, then three at once; each approved by an approver who releases another.
    const tags = ['ALONE', 'ONE', 'TWO', 'THREE'].map((tag) => `${tag}${randomBytes(2).toString('hex')}`)
    const runIds: string[] = []
    for (const [index, tag] of tags.entries()) {
      const content = contentOf(tag)
      const runId = `BR-bench-${tag}`
      await preparer.team.withDesk('bench', async ({ operations }) => {
        const run = await operations.createRun({ runId, label: `Bench ${tag}`, content })
        await operations.submitRun({ runId, version: 1, contentHash: run.contentHash })
      })
      const approver = desks[(index + 1) % desks.length]!
      await approver.use(async ({ operations }) => {
        const run = await operations.run(runId)
        await operations.approveRun({ runId, version: 1, contentHash: run.contentHash, typedTotal: run.total })
      })
      runIds.push(runId)
    }

    // Until release() answers: the approved content read and hashed, the run written on this desk, the gate's claim.
    const setupMs = new Map<string, number>()
    const timeRelease = async (desk: ReleaseDesk, runId: string): Promise<number> => {
      const started = performance.now()
      await desk.release.release(runId)
      setupMs.set(runId, performance.now() - started)
      while (desk.runs.service.view(runId).stage === 'submitting') await new Promise((r) => setTimeout(r, 5))
      const elapsed = performance.now() - started
      const view = desk.runs.service.view(runId)
      if (view.batches.some((b) => b.state !== 'accepted')) throw new Error(`${runId}: not every batch was accepted`)
      return elapsed
    }

    const aloneClaims = desks[0]!.claimMs.length
    const aloneCalls = desks[0]!.claimCalls.length
    const alone = await timeRelease(desks[0]!, runIds[0]!)
    const aloneClaimMs = desks[0]!.claimMs.slice(aloneClaims)
    const aloneCallMs = desks[0]!.claimCalls.slice(aloneCalls).map((c) => c.ms)
    const together = await Promise.all(desks.map((desk, index) => timeRelease(desk, runIds[index + 1]!)))

    // The control: the same sizes sent by the same desks without the team (no claims), alone and
    // three at once. Desks here share one process and the machine's two cores with the simulator
    // and PostgreSQL; this says how much of the slowdown is the machine, not the claims.
    const timeSolo = async (desk: ReleaseDesk, tag: string): Promise<number> => {
      const sheet = sheetOf(ROWS, new Set(), tag)
      const run = await desk.runs.service.create({ result: sheet, bytes: csvBytes(sheet), currency: 'NGN' })
      await desk.runs.service.toReview(run.id)
      const started = performance.now()
      await desk.runs.service.submit(run.id)
      while (desk.runs.service.view(run.id).stage === 'submitting') await new Promise((r) => setTimeout(r, 5))
      return performance.now() - started
    }
    const soloAlone = await timeSolo(desks[0]!, `SOLO${randomBytes(2).toString('hex')}`)
    const soloTogether = await Promise.all(
      desks.map((desk, index) => timeSolo(desk, `SOLO${index}${randomBytes(2).toString('hex')}`)),
    )

    const batches = planBatchSizes(ROWS).length
    const payouts = await simulatorPayouts(sandbox.url, KEY)
    const seen = new Map<string, number>()
    for (const payout of payouts) seen.set(payout.reference, (seen.get(payout.reference) ?? 0) + 1)
    const twice = [...seen.values()].filter((count) => count > 1).length
    const allClaims = desks.flatMap((desk) => desk.claimMs)
    const allCalls = desks.flatMap((desk) => desk.claimCalls)
    console.log(
      `team-release: ${ROWS} rows per run (${batches} batches of at most 50), latency ${LATENCY_MS} ms on the bulk endpoint, 4 lanes per desk`,
    )
    console.log(
      `team-release: one desk alone ${alone.toFixed(0)} ms (of which ${setupMs.get(runIds[0]!)!.toFixed(0)} ms before the first batch: content read and hashed, run written, gate claimed)`,
    )
    for (const [index, elapsed] of together.entries())
      console.log(
        `team-release: desk ${index + 1} of 3 at once ${elapsed.toFixed(0)} ms; ratio to alone ${(elapsed / alone).toFixed(2)} (target <= 1.20); ${setupMs.get(runIds[index + 1]!)!.toFixed(0)} ms before the first batch`,
      )
    console.log(
      `team-release: claim overhead per batch alone median ${median(aloneClaimMs).toFixed(1)} ms; with three desks median ${median(allClaims).toFixed(1)} ms, max ${Math.max(...allClaims).toFixed(1)} ms (${allClaims.length} batches claimed)`,
    )
    console.log(
      `team-release: claim transactions: alone ${aloneCallMs.length}, median round trip ${median(aloneCallMs).toFixed(1)} ms; with three desks ${allCalls.length} for ${allClaims.length} batches, median round trip ${median(allCalls.map((c) => c.ms)).toFixed(1)} ms`,
    )
    console.log(
      `team-release: control without the team (no claims, same process): alone ${soloAlone.toFixed(0)} ms; three at once ${soloTogether.map((t) => `${t.toFixed(0)} ms (${(t / soloAlone).toFixed(2)}x)`).join(', ')}`,
    )
    console.log(
      `team-release: payouts the simulator holds ${payouts.length} of ${8 * ROWS}; rows paid twice ${twice} (must be 0)`,
    )
  } finally {
    await Promise.all(desks.map((desk) => desk.close()))
    await preparer.close()
    await sandbox.close()
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error)
    process.exit(1)
  },
)
