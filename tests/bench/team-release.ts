/**
 * Benchmark: three desks releasing three runs of 10,000 rows at once, against one team database
 * (a real PostgreSQL, started for the benchmark) and one simulator in its own process with 100 ms
 * latency on the bulk endpoint. Each desk is a process of its own (team-release-desk.ts), as each
 * desk of a team is its own app on its own machine; they share this machine's cores with
 * PostgreSQL and the simulator. Each run's time (from Release until every batch is accepted: the
 * run materialised from the team's copy, its hash recomputed, every batch claimed in the database
 * before it leaves) is compared with the time one desk alone takes for a run of the same size
 * (target <= 1.2x). A control sends the same sizes from the same desk processes without the team
 * (no claims). Prints the claim overhead per batch and the rows the simulator holds twice (must
 * be 0).
 * Run: npm run bench:team-release   (TEAM_RELEASE_ROWS=4000 for a shorter run;
 * TEAM_RELEASE_CPU_PROF=<folder> writes each desk process's CPU profiles in <folder>/desk<n>)
 */
import { fork } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import type { TeamRunContent } from '../../shared/domain/team'
import { planBatchSizes } from '../../shared/domain/bulk-run'
import { DEFAULT_TEAM_TIMING } from '../../electron/main/services/team/team-service'
import { createTeamDatabase } from '../support/team-database'
import { deskWithTeam } from '../unit/electron/main/services/team/harness'
import { sandboxAdmin, sheetOf, simulatorPayouts } from '../unit/electron/main/services/bulk/run/harness'
import { startBenchSandbox } from './bulk-bench-sandbox'
import type { DeskAnswer, DeskCommand, DeskSetup } from './team-release-desk'

const ROWS = Number(process.env.TEAM_RELEASE_ROWS ?? 10_000)
const LATENCY_MS = Number(process.env.TEAM_RELEASE_LATENCY_MS ?? 100)
const CPU_PROF = process.env.TEAM_RELEASE_CPU_PROF
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

/** A desk process: started with its setup, then told what to do, one command at a time. */
interface DeskProcess {
  ask<K extends DeskAnswer['kind']>(command: DeskCommand, expect: K): Promise<Extract<DeskAnswer, { kind: K }>>
  close(): Promise<void>
}

async function startDesk(setup: DeskSetup, name: string): Promise<DeskProcess> {
  const child: ChildProcess = fork(join(__dirname, 'team-release-desk.ts'), [JSON.stringify(setup)], {
    execArgv: ['--import', 'tsx', ...(CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', join(CPU_PROF, name)] : [])],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  const answers: DeskAnswer[] = []
  const waiting: Array<(answer: DeskAnswer) => void> = []
  let exited: Error | null = null
  child.on('message', (answer: DeskAnswer) => {
    const next = waiting.shift()
    if (next) next(answer)
    else answers.push(answer)
  })
  const next = () =>
    new Promise<DeskAnswer>((resolve, reject) => {
      if (exited) return reject(exited)
      const ready = answers.shift()
      if (ready) return resolve(ready)
      waiting.push(resolve)
      child.once('exit', (code) => reject(new Error(`desk ${name} exited with ${code}`)))
    })
  child.once('exit', (code) => {
    exited = new Error(`desk ${name} exited with ${code}`)
  })
  const expectKind = async <K extends DeskAnswer['kind']>(kind: K) => {
    const answer = await next()
    if (answer.kind === 'failed') throw new Error(`desk ${name}: ${answer.message}`)
    if (answer.kind !== kind) throw new Error(`desk ${name} answered ${answer.kind}, not ${kind}`)
    return answer as Extract<DeskAnswer, { kind: K }>
  }
  await expectKind('ready')
  return {
    ask(command, expect) {
      child.send(command)
      return expectKind(expect)
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.send({ kind: 'close' } satisfies DeskCommand)
      }),
  }
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
  const desks: DeskProcess[] = []
  try {
    await sandboxAdmin(sandbox.url, KEY, 'POST', '/__sandbox/balances', { currency: 'NGN', amount: '999999999999.00' })
    await sandboxAdmin(sandbox.url, KEY, 'POST', '/__sandbox/faults', {
      path: '/api/v1/transactions/disburse/bulk',
      kind: 'latency',
      ms: LATENCY_MS,
      count: 10_000,
    })
    // Four runs, prepared and approved here (not measured): one released alone, then three at
    // once; each approved by an approver who releases another.
    const preparer = await deskWithTeam(draft(preparerLogin.login), preparerLogin.password, DEFAULT_TEAM_TIMING)
    const approving = await Promise.all(
      approvers.map((member) => deskWithTeam(draft(member.login), member.password, DEFAULT_TEAM_TIMING)),
    )
    const tags = ['ALONE', 'ONE', 'TWO', 'THREE'].map((tag) => `${tag}${randomBytes(2).toString('hex')}`)
    const runIds: string[] = []
    try {
      await preparer.team.connect()
      for (const desk of approving) await desk.team.connect()
      for (const [index, tag] of tags.entries()) {
        const content = contentOf(tag)
        const runId = `BR-bench-${tag}`
        await preparer.team.withDesk('bench', async ({ operations }) => {
          const run = await operations.createRun({ runId, label: `Bench ${tag}`, content })
          await operations.submitRun({ runId, version: 1, contentHash: run.contentHash })
        })
        await approving[(index + 1) % approving.length]!.team.withDesk('bench', async ({ operations }) => {
          const run = await operations.run(runId)
          await operations.approveRun({ runId, version: 1, contentHash: run.contentHash, typedTotal: run.total })
        })
        runIds.push(runId)
      }
    } finally {
      await Promise.all([preparer, ...approving].map((desk) => desk.close()))
    }

    desks.push(
      ...(await Promise.all(
        approvers.map((member, index) =>
          startDesk(
            { member, draft: draft(member.login), sandboxUrl: sandbox.url, secretKey: KEY, rows: ROWS },
            `desk${index + 1}`,
          ),
        ),
      )),
    )
    const alone = await desks[0]!.ask({ kind: 'release', runId: runIds[0]! }, 'released')
    const together = await Promise.all(
      desks.map((desk, index) => desk.ask({ kind: 'release', runId: runIds[index + 1]! }, 'released')),
    )

    // The control: the same sizes sent by the same desk processes without the team (no claims),
    // alone and three at once. The desks share the machine's two cores with the simulator and
    // PostgreSQL; this says how much of the slowdown is the machine, not the team.
    // It starts once every desk has recorded its release's results (and records no more).
    await Promise.all(desks.map((desk) => desk.ask({ kind: 'settle' }, 'settled')))
    const soloAlone = (await desks[0]!.ask({ kind: 'solo', tag: 'SOLO' }, 'solo')).elapsedMs
    const soloTogether = (
      await Promise.all(desks.map((desk, index) => desk.ask({ kind: 'solo', tag: `SOLO${index}` }, 'solo')))
    ).map((answer) => answer.elapsedMs)

    const batches = planBatchSizes(ROWS).length
    const payouts = await simulatorPayouts(sandbox.url, KEY)
    const seen = new Map<string, number>()
    for (const payout of payouts) seen.set(payout.reference, (seen.get(payout.reference) ?? 0) + 1)
    const twice = [...seen.values()].filter((count) => count > 1).length
    const allClaims = together.flatMap((answer) => answer.claimMs)
    const allCalls = together.flatMap((answer) => answer.claimCalls)
    console.log(
      `team-release: ${ROWS} rows per run (${batches} batches of at most 50), latency ${LATENCY_MS} ms on the bulk endpoint, 4 lanes per desk, each desk a process of its own`,
    )
    console.log(
      `team-release: one desk alone ${alone.elapsedMs.toFixed(0)} ms (of which ${alone.setupMs.toFixed(0)} ms before the first batch: content read and hashed, run written, gate claimed)`,
    )
    for (const [index, answer] of together.entries())
      console.log(
        `team-release: desk ${index + 1} of 3 at once ${answer.elapsedMs.toFixed(0)} ms; ratio to alone ${(answer.elapsedMs / alone.elapsedMs).toFixed(2)} (target <= 1.20); ${answer.setupMs.toFixed(0)} ms before the first batch`,
      )
    const steps = (answer: { steps: Array<{ step: string; ms: number }> }) =>
      answer.steps.map(({ step, ms }) => `${step} ${ms.toFixed(0)}`).join(', ')
    console.log(
      `team-release: the start, ms since Release as each part ended (read: approved content read and hashed; written: the run written on the desk; gate: first batch claimed, alongside the writing; hashed: the written run hashed; sending: the run started): alone ${steps(alone)}; ${together.map((answer, index) => `desk ${index + 1} ${steps(answer)}`).join('; ')}`,
    )
    console.log(
      `team-release: claim overhead per batch alone median ${median(alone.claimMs).toFixed(1)} ms; with three desks median ${median(allClaims).toFixed(1)} ms, max ${Math.max(...allClaims).toFixed(1)} ms (${allClaims.length} batches claimed)`,
    )
    console.log(
      `team-release: claim transactions: alone ${alone.claimCalls.length}, median round trip ${median(alone.claimCalls.map((c) => c.ms)).toFixed(1)} ms; with three desks ${allCalls.length} for ${allClaims.length} batches, median round trip ${median(allCalls.map((c) => c.ms)).toFixed(1)} ms`,
    )
    console.log(
      `team-release: control without the team (no claims, same desk processes): alone ${soloAlone.toFixed(0)} ms; three at once ${soloTogether.map((t) => `${t.toFixed(0)} ms (${(t / soloAlone).toFixed(2)}x)`).join(', ')}`,
    )
    console.log(
      `team-release: payouts the simulator holds ${payouts.length} of ${8 * ROWS}; rows paid twice ${twice} (must be 0)`,
    )
  } finally {
    await Promise.all(desks.map((desk) => desk.close()))
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
