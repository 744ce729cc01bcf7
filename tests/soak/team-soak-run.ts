/**
 * The team soak: releases of approved runs by desks in processes of their own (team-world.ts),
 * the releasing desk SIGKILLed at random instants (and now and then armed to die at a checkpoint
 * where a crash is most dangerous: between a batch's intent and its request, between an answer
 * and its record), started again after a while, while a person at each desk does what the screens
 * offer (Release, Check again) and the desks take each other's releases over once leases lapse.
 * Faults of time: some batches are slow at the Sandbox. At the end the Sandbox is asked whether
 * every release finished with every row paid exactly once, whether every desk's copy and the
 * team's records agree with it, and whether the team's payment memory holds every paid row.
 */
import type { Checkpoint } from '../../electron/main/services/checkpoints'
import { DeskGone } from './processes'
import { Random } from './random'
import { personActs } from './team-person'
import { copyDisagreements, deskCopy, startTeamWorld, waitUntil } from './team-world'
import type { TeamDeskHandle, TeamWorld } from './team-world'

export interface TeamSoakOptions {
  seed: number
  /** How many runs are released, one after another. */
  releases: number
  desks?: number
  leaseSeconds?: number
  /** Kills of the releasing desk at most per release (random instants and checkpoints together). */
  killsPerRelease?: number
  /** Kills made at least over the whole soak (a short run whose seed drew few still kills). */
  minKills?: number
  /** How long one release may take, kills and takeovers included, before it counts as unfinished. */
  releaseSeconds?: number
  log?: (line: string) => void
}

export interface TeamSoakReport {
  seed: number
  releases: number
  desks: number
  seconds: number
  rows: number
  batches: number
  kills: { randomInstant: number; atCheckpoint: Partial<Record<Checkpoint, number>>; total: number }
  restarts: number
  /** Claims taken over by a desk after another desk's lease ran out. */
  takeovers: number
  actions: Record<string, number>
  refusals: Record<string, number>
  /** Per release: its seconds from Release to completed in the team (null: never). */
  releaseSeconds: Array<number | null>
  unfinished: string[]
  /** Rows of the runs not paid at the service, or paid under another reference than theirs. */
  unpaid: Array<{ reference: string; service: string }>
  extraPayouts: string[]
  copyDisagreements: Array<{ desk: string; runId: string; reference: string; copy: string; service: string }>
  /** Each desk copy that disagrees: its stage, message, rows by status and batches by state. */
  wrongCopies: Array<{
    desk: string
    runId: string
    stage: string
    message?: string
    rows: Record<string, number>
    batches: Record<string, number>
  }>
  teamDisagreements: Array<{ runId: string; reference: string; team: string; service: string }>
  notInMemory: string[]
}

const CHECKPOINT_KILLS: readonly Checkpoint[] = ['send:intent-on-disk', 'send:answer-received']

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

export async function runTeamSoak(options: TeamSoakOptions): Promise<TeamSoakReport> {
  const log = options.log ?? (() => undefined)
  const random = new Random(options.seed)
  const leaseSeconds = options.leaseSeconds ?? 4
  const killsPerRelease = options.killsPerRelease ?? 3
  const started = Date.now()
  const world: TeamWorld = await startTeamWorld({
    label: `soak_${options.seed}`,
    desks: options.desks ?? 3,
    leaseSeconds,
  })
  const kills: TeamSoakReport['kills'] = { randomInstant: 0, atCheckpoint: {}, total: 0 }
  const actions: Record<string, number> = {}
  const refusals: Record<string, number> = {}
  const releaseSeconds: Array<number | null> = []
  const runs: Array<{ runId: string; references: string[] }> = []
  let restarts = 0
  const pendingKills = new Set<ReturnType<typeof setTimeout>>()
  let rows = 0
  let batches = 0
  let stopping = false

  let stopped: () => void = () => undefined
  const stop = new Promise<null>((resolve) => (stopped = () => resolve(null)))

  /** Each desk, once its process ends: counted, and started again after a while (sometimes armed). */
  const supervisors = world.desks.map((desk) => supervise(desk))
  async function supervise(desk: TeamDeskHandle): Promise<void> {
    for (;;) {
      const end = (await Promise.race([desk.ended(), stop])) as {
        killedAt: Checkpoint | null
        signal: string | null
      } | null
      if (!end || stopping) return
      if (end.killedAt) kills.atCheckpoint[end.killedAt] = (kills.atCheckpoint[end.killedAt] ?? 0) + 1
      else kills.randomInstant++
      kills.total++
      await Promise.race([pause(random.int(300, 3000)), stop])
      if (stopping) return
      const armed = random.chance(0.3)
        ? { killAt: random.pick(CHECKPOINT_KILLS), killAfter: random.int(1, 3) }
        : undefined
      // Started again; a start that fails is tried again a second later.
      while (!stopping) {
        try {
          await desk.restart(armed)
          restarts++
          break
        } catch (error) {
          log(`  ${desk.name} did not start: ${(error as Error).message}`)
          await pause(1000)
        }
      }
    }
  }

  const alive = () => world.desks.filter((desk) => desk.alive())
  const count = (key: string, into: Record<string, number>) => (into[key] = (into[key] ?? 0) + 1)

  async function look(desk: TeamDeskHandle, runId: string): Promise<void> {
    try {
      const seen = await personActs(desk, runId, random.chance(0.5) ? 'release' : 'check again')
      count(seen.action, actions)
      if (seen.refused) count(`${seen.refused.code}: ${seen.refused.message.slice(0, 60)}`, refusals)
    } catch (error) {
      if (!(error instanceof DeskGone) && desk.alive()) throw error
    }
  }

  try {
    for (let release = 0; release < options.releases; release++) {
      const size = random.chance(0.3) ? random.int(400, 900) : random.int(60, 350)
      const { runId, content } = await world.approvedRun(size, `T${release + 1}`)
      const references = content.rows.map((row) => row.reference)
      runs.push({ runId, references })
      rows += size
      batches += Math.ceil(size / 50)
      if (random.chance(0.6)) await world.slowBatches(random.int(300, 1500), random.int(2, 10))
      const releaseStarted = Date.now()
      let killsMade = 0
      // Kills fallen behind an even share of the minimum are made anyway.
      const behind = () => kills.total < Math.floor(((release + 1) * (options.minKills ?? 0)) / options.releases)
      const until = releaseStarted + (options.releaseSeconds ?? 120) * 1000
      let completed = false
      while (Date.now() < until) {
        if ((await world.teamRun(runId)).state === 'completed') {
          completed = true
          break
        }
        // The releasing desk, killed at a random instant of its work.
        if (killsMade < killsPerRelease && (random.chance(0.12) || behind())) {
          const holders = await world.releasingDesks(runId)
          const victim = world.desks.find((desk) => holders.includes(desk.deskId) && desk.alive())
          if (victim) {
            killsMade++
            // The process running now: a kill that fires after the soak started this desk again
            // (its last phase restarts every desk) must never hit the new process.
            const target = victim.process
            const timer = setTimeout(
              () => {
                pendingKills.delete(timer)
                target.kill()
              },
              random.int(0, 1500),
            )
            pendingKills.add(timer)
          }
        }
        // A person at one of the desks looks and does what the screen offers.
        const desks = alive()
        if (desks.length > 0) await look(random.pick(desks), runId)
        await pause(random.int(150, 700))
      }
      releaseSeconds.push(completed ? Math.round((Date.now() - releaseStarted) / 1000) : null)
      await world.sandbox.request('DELETE', '/__sandbox/faults')
      log(
        `  release ${release + 1}: ${size} rows, ${completed ? `completed in ${releaseSeconds.at(-1)} s` : 'NOT completed'}, ${kills.total} kills so far`,
      )
    }

    // The last phase: no more kills; every desk running; persons check their copies again until
    // each agrees with the service (or a run is done, by itself, on hearing the team).
    stopping = true
    stopped()
    // Kills still scheduled are dropped: the last phase starts every desk and kills none.
    for (const timer of pendingKills) clearTimeout(timer)
    pendingKills.clear()
    await Promise.all(supervisors)
    for (const desk of world.desks)
      if (!desk.alive()) {
        await desk.restart()
        restarts++
      }
    await Promise.all(
      world.desks.map((desk) =>
        waitUntil(async () => (await desk.call<{ state: string }>('team:status')).ok, `${desk.name} to answer`, 60_000),
      ),
    )
    for (const { runId } of runs) {
      if ((await world.teamRun(runId)).state !== 'completed')
        await waitUntil(
          async () => {
            if ((await world.teamRun(runId)).state === 'completed') return true
            await look(random.pick(world.desks), runId)
            return false
          },
          `run ${runId} completed`,
          60_000,
          500,
        ).catch(() => undefined)
      for (const desk of world.desks)
        await waitUntil(
          async () => {
            const copy = await deskCopy(desk, runId)
            if (!copy) return true
            if (copy.view.stage === 'completed') return true
            if (copy.view.stage === 'attention') await desk.call('bulk:recheck', { runId })
            return false
          },
          `${desk.name}'s copy of ${runId} to complete`,
          60_000,
          500,
        ).catch(() => undefined)
    }
    return await verdict()
  } finally {
    stopping = true
    stopped()
    await Promise.all(supervisors)
    await world.close()
  }

  async function verdict(): Promise<TeamSoakReport> {
    const service = await world.servicePayouts()
    const memory = await world.paymentMemory('test')
    const report: TeamSoakReport = {
      seed: options.seed,
      releases: options.releases,
      desks: world.desks.length,
      seconds: Math.round((Date.now() - started) / 1000),
      rows,
      batches,
      kills,
      restarts,
      takeovers: 0,
      actions,
      refusals,
      releaseSeconds,
      unfinished: [],
      unpaid: [],
      extraPayouts: [],
      copyDisagreements: [],
      wrongCopies: [],
      teamDisagreements: [],
      notInMemory: [],
    }
    const known = new Set(runs.flatMap((run) => run.references))
    report.extraPayouts = [...service.keys()].filter((reference) => !known.has(reference))
    const takeovers = await world.db.asOwner((c) =>
      c.query<{ n: string }>('SELECT coalesce(sum(takeovers), 0)::text AS n FROM payout_desk.claims'),
    )
    report.takeovers = Number(takeovers.rows[0]?.n ?? 0)
    for (const { runId, references } of runs) {
      if ((await world.teamRun(runId)).state !== 'completed') report.unfinished.push(runId)
      const results = await world.teamResults(runId)
      for (const reference of references) {
        const payout = service.get(reference)
        if (payout?.status !== 'success') report.unpaid.push({ reference, service: payout?.status ?? 'absent' })
        const team = results.get(reference) ?? null
        const expected = payout?.status === 'success' ? 'paid' : payout?.status === 'failed' ? 'failed' : null
        if (team !== expected)
          report.teamDisagreements.push({ runId, reference, team: team ?? 'none', service: payout?.status ?? 'absent' })
        if (payout?.status === 'success' && !memory.has(reference)) report.notInMemory.push(reference)
      }
      for (const desk of world.desks) {
        const copy = await deskCopy(desk, runId)
        if (!copy) continue
        for (const wrong of copyDisagreements(copy.rows, service))
          report.copyDisagreements.push({
            desk: desk.name,
            runId,
            reference: wrong.reference,
            copy: wrong.desk,
            service: wrong.service,
          })
        const wrong = copyDisagreements(copy.rows, service).length > 0 || copy.view.stage !== 'completed'
        if (wrong) {
          const tally = (values: string[]) =>
            values.reduce<Record<string, number>>((all, value) => ((all[value] = (all[value] ?? 0) + 1), all), {})
          report.wrongCopies.push({
            desk: desk.name,
            runId,
            stage: copy.view.stage,
            ...(copy.view.message ? { message: copy.view.message } : {}),
            rows: tally(copy.rows.map((row) => row.status)),
            batches: tally(copy.view.batches.map((batch) => batch.state)),
          })
        }
        if (copy.view.stage !== 'completed')
          report.copyDisagreements.push({
            desk: desk.name,
            runId,
            reference: '(the run)',
            copy: `${copy.view.stage}${copy.view.message ? `: ${copy.view.message}` : ''}`,
            service: 'completed',
          })
      }
    }
    return report
  }
}

/** Whether the soak found anything wrong: its verdict lists, all empty when nothing was. */
export function teamSoakFailures(report: TeamSoakReport): string[] {
  const failures: string[] = []
  if (report.unfinished.length) failures.push(`${report.unfinished.length} release(s) never finished`)
  if (report.unpaid.length) failures.push(`${report.unpaid.length} row(s) not paid`)
  if (report.extraPayouts.length) failures.push(`${report.extraPayouts.length} payout(s) under unknown references`)
  if (report.copyDisagreements.length) failures.push(`${report.copyDisagreements.length} desk copy disagreement(s)`)
  if (report.teamDisagreements.length) failures.push(`${report.teamDisagreements.length} team record disagreement(s)`)
  if (report.notInMemory.length) failures.push(`${report.notInMemory.length} paid row(s) missing from the memory`)
  return failures
}

export function formatTeamReport(report: TeamSoakReport): string {
  const sample = <T>(list: T[]) => (list.length ? `: ${JSON.stringify(list.slice(0, 6))}` : '')
  return [
    `team soak seed ${report.seed}: ${report.releases} releases by ${report.desks} desks in ${report.seconds} s`,
    `rows ${report.rows} in ${report.batches} batches; release seconds ${JSON.stringify(report.releaseSeconds)}`,
    `kills ${report.kills.total}: random instants ${report.kills.randomInstant}, at checkpoints ${JSON.stringify(report.kills.atCheckpoint)}; restarts ${report.restarts}; claims taken over ${report.takeovers}`,
    `actions ${JSON.stringify(report.actions)}`,
    `refusals ${JSON.stringify(report.refusals)}`,
    `unfinished releases ${report.unfinished.length}${sample(report.unfinished)}`,
    `rows not paid exactly once ${report.unpaid.length + report.extraPayouts.length}${sample([...report.unpaid, ...report.extraPayouts])}`,
    `desk copies disagreeing with the service ${report.copyDisagreements.length}${sample(report.copyDisagreements)}`,
    ...report.wrongCopies.map((copy) => `  ${copy.desk}'s copy of ${copy.runId}: ${JSON.stringify(copy)}`),
    `team records disagreeing with the service ${report.teamDisagreements.length}${sample(report.teamDisagreements)}`,
    `paid rows missing from the team's payment memory ${report.notInMemory.length}${sample(report.notInMemory)}`,
  ].join('\n')
}
