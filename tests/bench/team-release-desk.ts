/**
 * One desk of the team-release benchmark, in a process of its own (each desk of a team is its
 * own app on its own machine, decision 45): its team connection as one approver, its journal, run folders and
 * team release. The parent (team-release.ts) sends it what to do over the IPC channel and gets
 * back what it measured: a release of a team run, or the control (a run of the same size sent
 * without the team).
 */
import { randomBytes } from 'node:crypto'
import type { TeamConnectionDraft } from '../../shared/domain/team'
import type { ReleaseStep } from '../../electron/main/services/team/team-release'
import { DEFAULT_TEAM_TIMING } from '../../electron/main/services/team/team-service'
import type { TeamMemberLogin } from '../support/team-database'
import { releaseDesk } from '../unit/electron/main/services/team/release-desk'
import { csvBytes, sheetOf } from '../unit/electron/main/services/bulk/run/harness'

export interface DeskSetup {
  member: TeamMemberLogin
  draft: TeamConnectionDraft
  sandboxUrl: string
  secretKey: string
  rows: number
}

export type DeskCommand =
  { kind: 'release'; runId: string } | { kind: 'settle' } | { kind: 'solo'; tag: string } | { kind: 'close' }

export type DeskAnswer =
  | { kind: 'ready' }
  | {
      kind: 'released'
      runId: string
      /** From Release until every batch is accepted. */
      elapsedMs: number
      /** Until release() answered: the approved content read and hashed, the run written here, the gate claimed. */
      setupMs: number
      /** Each claim call's round trip shared out over the batches it claimed. */
      claimMs: number[]
      claimCalls: Array<{ ms: number; batches: number }>
      /** The parts of the start as each ended (ms since Release). */
      steps: Array<{ step: ReleaseStep; ms: number }>
    }
  | { kind: 'settled' }
  | { kind: 'solo'; elapsedMs: number }
  | { kind: 'failed'; message: string }

async function main(): Promise<void> {
  const setup = JSON.parse(process.argv[2]!) as DeskSetup
  const send = (answer: DeskAnswer) => process.send!(answer)
  const desk = await releaseDesk({
    member: setup.member,
    draft: setup.draft,
    sandboxUrl: setup.sandboxUrl,
    secretKey: setup.secretKey,
    pollMs: 600_000,
    // The app's own timing: its connection's (a loaded machine must not read as a lost
    // connection), its lease and how often it records results.
    timing: DEFAULT_TEAM_TIMING,
    leaseSeconds: 120,
    recordEveryMs: 1000,
  })

  // The run's stage as it is (view() would total 10,000 rows each time it is asked: a screen
  // asks for it now and then, not every 5 ms).
  const untilSent = async (runId: string): Promise<void> => {
    while (desk.runs.service.stateOf(runId).stage === 'submitting') await new Promise((r) => setTimeout(r, 5))
  }

  async function release(runId: string): Promise<DeskAnswer> {
    const claims = desk.claimMs.length
    const calls = desk.claimCalls.length
    const started = performance.now()
    await desk.release.release(runId)
    const setupMs = performance.now() - started
    await untilSent(runId)
    const elapsedMs = performance.now() - started
    if (desk.runs.service.stateOf(runId).batches.some((b) => b.state !== 'accepted'))
      throw new Error(`${runId}: not every batch was accepted`)
    return {
      kind: 'released',
      runId,
      elapsedMs,
      setupMs,
      claimMs: desk.claimMs.slice(claims),
      claimCalls: desk.claimCalls.slice(calls),
      steps: desk.releaseSteps.filter((s) => s.runId === runId).map(({ step, ms }) => ({ step, ms })),
    }
  }

  // The team part over: results recorded, and no more recording while the control sends.
  async function settle(): Promise<DeskAnswer> {
    desk.release.close()
    await desk.release.flush()
    return { kind: 'settled' }
  }

  // The control: the same size sent by this desk without the team (no claims, no team run).
  async function solo(tag: string): Promise<DeskAnswer> {
    const sheet = sheetOf(setup.rows, new Set(), `${tag}${randomBytes(2).toString('hex')}`)
    const run = await desk.runs.service.create({ result: sheet, bytes: csvBytes(sheet), currency: 'NGN' })
    await desk.runs.service.toReview(run.id)
    const started = performance.now()
    await desk.runs.service.submit(run.id)
    await untilSent(run.id)
    return { kind: 'solo', elapsedMs: performance.now() - started }
  }

  process.on('message', (command: DeskCommand) => {
    if (command.kind === 'close') {
      void desk.close().finally(() => process.exit(0))
      return
    }
    const work =
      command.kind === 'release' ? release(command.runId) : command.kind === 'settle' ? settle() : solo(command.tag)
    work.then(send, (error: unknown) =>
      send({ kind: 'failed', message: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
    )
  })
  send({ kind: 'ready' })
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
