/**
 * The soak: the real desk (desk-process.ts) against the Sandbox in another process, a simulated
 * user doing what the screens offer (user.ts), faults injected into the Sandbox, and SIGKILLs at
 * random instants and at the checkpoints where a crash is most dangerous (inside an import, inside
 * the creation of a retry run, between a journal write and its request, between an answer and its
 * record). After every kill the desk is started again on the same user data and the user carries
 * on. A share of the iterations (`rateLimit`) runs against a rate-limited Sandbox, with and without
 * Retry-After in turn (decision 159). At the end the Sandbox is asked: was every payment paid at most once, is everything the user
 * was told was sent there, and does the desk's view of every row and payout agree with it?
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { RunRow, RunSummary } from '../../shared/domain/bulk-run'
import type { MovementView } from '../../shared/domain/journal'
import { CHECKPOINTS, type Checkpoint } from '../../electron/main/services/checkpoints'
import { pickFault } from './faults'
import { Ledger } from './ledger'
import { DeskGone, servicePayouts, startDeskProcess, startSandboxProcess, type DeskProcess } from './processes'
import { Random } from './random'
import { paymentOf } from './sheets'
import { SoakUser } from './user'

/** How many actions a desk armed for a checkpoint is left to reach it before random kills resume. */
const ARMED_ACTIONS = 6
/** The checkpoints a desk reaches from any state: the user can always import a sheet. */
const IMPORT_CHECKPOINTS: readonly Checkpoint[] = CHECKPOINTS.filter((point) => point.startsWith('import:'))

export interface SoakOptions {
  iterations: number
  seed: number
  /** Chance per iteration of a SIGKILL at a random instant of the user's action. */
  killChance?: number
  /**
   * Kills the run makes at least: when the random ones fall behind an even share of this, the
   * iteration's random-instant kill is made anyway (a short run whose seed drew few kills still
   * kills the desk as often as it claims to).
   */
  minKills?: number
  /**
   * Kills at checkpoints the run makes at least: until it has, a desk armed for one is left twice
   * as many actions to reach it before a random kill may take it first (a loaded machine spends
   * actions waiting on imports, and random kills then took every armed desk early).
   */
  minCheckpointKills?: number
  /** Chance that a restarted desk is armed to kill itself at a checkpoint. */
  armChance?: number
  /** Chance per iteration that the user quits the app and opens it again. */
  quitChance?: number
  /** Chance per iteration of a fault injected into the Sandbox. */
  faultChance?: number
  /** How long the last phase may take for every run and payout to settle. */
  settleSeconds?: number
  /**
   * Iterations run against a rate-limited Sandbox (decision 159): `share` of them, in windows of
   * `window` iterations spread evenly through the loop (no random draw: a seed replays the same
   * user), at `perSecond` requests a second per group of paths, the windows with Retry-After and
   * without it in turn. Faults and kills go on as usual inside them.
   */
  rateLimit?: { share: number; window?: number; perSecond?: number }
  log?: (line: string) => void
}

export interface Disagreement {
  reference: string
  desk: string
  service: string
  where: string
}

export interface SoakReport {
  seed: number
  iterations: number
  seconds: number
  /** Of which the user's loop, and the last phase that lets everything settle. */
  loopSeconds: number
  settleSeconds: number
  runs: number
  payouts: number
  sheetRows: number
  actions: Record<string, number>
  doubleClicks: number
  refusals: Record<string, number>
  faults: Record<string, number>
  kills: { randomInstant: number; atCheckpoint: Partial<Record<Checkpoint, number>>; total: number }
  restarts: number
  /** Iterations run rate-limited, with and without Retry-After, and what the Sandbox metered then. */
  rateLimited: { withRetryAfter: number; withoutRetryAfter: number; metered: number; answered429: number }
  /** Clean quits and restarts by the user. */
  quits: number
  doublePayments: Array<{ payment: string; references: string[]; deskShows: string[] }>
  lostPayouts: Array<{ reference: string; why: string }>
  disagreements: Disagreement[]
}

export async function runSoak(options: SoakOptions): Promise<SoakReport> {
  const log = options.log ?? (() => undefined)
  const random = new Random(options.seed)
  const tag = `K${options.seed.toString(36).toUpperCase()}`
  const started = Date.now()
  const dir = await mkdtemp(join(tmpdir(), 'payout-desk-soak-'))
  const userDataDir = join(dir, 'user-data')
  // The OS keychain's stand-in lives outside the folders the run's final secret scan reads: the
  // keychain is where keys belong, not a file the app wrote.
  const keysDir = await mkdtemp(join(process.env['PAYOUT_DESK_REAL_TMPDIR'] ?? tmpdir(), 'payout-desk-soak-keys-'))
  const keychainFile = join(keysDir, 'keychain.json')
  const sandbox = await startSandboxProcess({ stateFile: join(dir, 'sandbox-state.jsonl'), settleMs: 300 })
  const ledger = new Ledger()
  const user = new SoakUser(random, ledger, tag, join(dir, 'sheets'))
  const faults: Record<string, number> = {}
  const kills: SoakReport['kills'] = { randomInstant: 0, atCheckpoint: {}, total: 0 }
  const checkpointKills = (): number => Object.values(kills.atCheckpoint).reduce((a, b) => a + (b ?? 0), 0)
  let restarts = 0
  let quits = 0
  /** The iteration now, and the one at which the desk running was armed for a checkpoint (or null). */
  let iterationNow = 0
  let armedAt: number | null = null
  let loopSeconds = 0
  let settleSeconds = 0
  const rateLimited: SoakReport['rateLimited'] = { withRetryAfter: 0, withoutRetryAfter: 0, metered: 0, answered429: 0 }
  /** Whether this iteration runs rate-limited: the windows a share of them falls in, evenly spread. */
  const limitFor = (iteration: number): { retryAfter: boolean } | null => {
    const limit = options.rateLimit
    if (!limit || !(limit.share > 0)) return null
    const size = Math.max(1, limit.window ?? 10)
    const window = Math.floor(iteration / size)
    if (Math.floor((window + 1) * limit.share) <= Math.floor(window * limit.share)) return null
    return { retryAfter: Math.floor((window + 1) * limit.share) % 2 === 1 }
  }
  let limitNow: { retryAfter: boolean } | null = null
  /** Sets (or clears) the Sandbox's rate limit for this iteration, when it changes; says which is on. */
  async function meterFor(iteration: number): Promise<{ retryAfter: boolean } | null> {
    const wanted = limitFor(iteration)
    if (wanted === null ? limitNow === null : wanted.retryAfter === limitNow?.retryAfter) return wanted
    if (wanted) {
      await sandbox.request('POST', '/__sandbox/rate-limit', {
        perSecond: options.rateLimit?.perSecond ?? 3,
        retryAfter: wanted.retryAfter,
      })
    } else await sandbox.request('DELETE', '/__sandbox/rate-limit')
    limitNow = wanted
    return wanted
  }

  /** Starts the desk, now and then armed to kill itself at the checkpoint least often hit yet. */
  async function start(armed: boolean): Promise<DeskProcess> {
    for (;;) {
      let killAt: Checkpoint | undefined
      if (armed && random.chance(options.armChance ?? 0.5)) {
        // Until the run has its least checkpoint kills, only those every state can reach (an
        // import); then the ones least often hit.
        const pool = checkpointKills() < (options.minCheckpointKills ?? 0) ? IMPORT_CHECKPOINTS : CHECKPOINTS
        const fewest = Math.min(...pool.map((point) => kills.atCheckpoint[point] ?? 0))
        killAt = random.pick(pool.filter((point) => (kills.atCheckpoint[point] ?? 0) <= fewest + 1))
      }
      const desk = await startDeskProcess({
        userDataDir,
        keychainFile,
        sandboxUrl: sandbox.url,
        ...(killAt ? { killAt, killAfter: random.int(1, 2) } : {}),
      })
      user.focus = killAt ?? null
      armedAt = killAt ? iterationNow : null
      if (desk.alive()) return desk
      // Killed at its checkpoint while resuming, before it could answer: counted, and again.
      await recordEnd(desk)
    }
  }

  async function recordEnd(desk: DeskProcess): Promise<void> {
    const end = await desk.ended
    if (end.killedAt) kills.atCheckpoint[end.killedAt] = (kills.atCheckpoint[end.killedAt] ?? 0) + 1
    else if (end.signal === 'SIGKILL') kills.randomInstant++
    else throw new Error(`The desk process ended by itself (code ${end.code}): ${desk.stderr()}`)
    kills.total++
    restarts++
  }

  let desk = await start(true)
  try {
    for (let iteration = 0; iteration < options.iterations; iteration++) {
      iterationNow = iteration
      // The accountant keeps the balance funded (else every batch would be refused for it).
      if (iteration % 10 === 0) await fund()
      const limit = await meterFor(iteration)
      if (limit) rateLimited[limit.retryAfter ? 'withRetryAfter' : 'withoutRetryAfter']++
      if (random.chance(options.faultChance ?? 0.3)) {
        const fault = pickFault(random)
        await sandbox.request('POST', '/__sandbox/faults', fault)
        const name = `${fault.kind} ${fault.path}`
        faults[name] = (faults[name] ?? 0) + 1
      }
      // A kill at a random instant: during this action, or in the work it started.
      const behind = kills.total < Math.floor(((iteration + 1) * (options.minKills ?? 0)) / options.iterations)
      // A desk armed for a checkpoint gets a few actions (the user heads for it) before a random
      // kill may take it first: with a fast desk, random kills alone took every armed one early.
      const armedActions = checkpointKills() < (options.minCheckpointKills ?? 0) ? 2 * ARMED_ACTIONS : ARMED_ACTIONS
      const reachingItsCheckpoint = armedAt !== null && iteration - armedAt < armedActions
      if (!reachingItsCheckpoint && (random.chance(options.killChance ?? 0.08) || behind)) {
        const current = desk
        setTimeout(() => current.kill(), random.int(0, 1200))
      }
      try {
        const action = await user.step(desk, { creates: true })
        if (action === 'wait') await pause(100)
      } catch (error) {
        if (!(error instanceof DeskGone) && desk.alive()) throw error
      }
      await pause(random.int(0, 60))
      if (!desk.alive()) {
        await recordEnd(desk)
        desk = await start(true)
      } else if (random.chance(options.quitChance ?? 0.03)) {
        // The user quits the app and opens it again.
        await desk.quit()
        quits++
        desk = await start(true)
      }
      if (iteration % 25 === 24) log(`  ${iteration + 1} iterations, ${kills.total} kills, ${restarts} restarts`)
    }

    loopSeconds = Math.round((Date.now() - started) / 1000)
    // The last phase: no more faults or kills; the user only carries on what is under way (checks
    // again, verifies, sends again what the service never received) until everything has settled.
    await sandbox.request('DELETE', '/__sandbox/faults')
    const metered = await sandbox.request<{ data: { metered: number; limited: number } }>(
      'GET',
      '/__sandbox/rate-limit',
    )
    rateLimited.metered = metered.body.data.metered
    rateLimited.answered429 = metered.body.data.limited
    await sandbox.request('DELETE', '/__sandbox/rate-limit')
    if (desk.alive()) await desk.quit()
    else await recordEnd(desk)
    desk = await start(false)
    const until = Date.now() + (options.settleSeconds ?? 60) * 1000
    while (Date.now() < until) {
      if (await settled(desk)) break
      await user.step(desk, { creates: false })
      await pause(300)
    }
    settleSeconds = Math.round((Date.now() - started) / 1000) - loopSeconds
    // Once more after a clean restart: what the desk shows must survive it.
    await desk.quit()
    desk = await start(false)
    return await verdict()
  } finally {
    if (desk.alive()) await desk.quit()
    await sandbox.stop()
    await rm(dir, { recursive: true, force: true })
    await rm(keysDir, { recursive: true, force: true })
  }

  async function fund(): Promise<void> {
    const balances = await sandbox.request<{ data: { NGN: string } }>('GET', '/__sandbox/balances')
    if (Number(balances.body.data.NGN) < 5_000_000)
      await sandbox.request('POST', '/__sandbox/balances', { currency: 'NGN', amount: '10000000.00' })
  }

  async function settled(current: DeskProcess): Promise<boolean> {
    const runs = await current.call<RunSummary[]>('bulk:runs')
    const payouts = await current.call<MovementView[]>('payouts:list')
    if (!runs.ok || !payouts.ok) return false
    const runsDone = runs.data.every((run) => !['submitting', 'monitoring', 'attention'].includes(run.stage))
    const payoutsDone = payouts.data.every((movement) => movement.state === 'success' || movement.state === 'failed')
    return runsDone && payoutsDone
  }

  async function verdict(): Promise<SoakReport> {
    const service = await servicePayouts(sandbox)
    const runs = need(await desk.call<RunSummary[]>('bulk:runs'))
    const rowsOf = new Map<string, RunRow[]>()
    for (const run of runs) {
      const rows = need(await desk.call<RunRow[]>('bulk:rows', { runId: run.id }))
      rowsOf.set(run.id, rows)
      user.noteRows(rows)
    }
    const movements = need(await desk.call<MovementView[]>('payouts:list'))
    const paid = (reference: string): boolean => {
      const status = service.get(reference)?.status
      return status === 'success' || status === 'processing' || status === 'pending'
    }

    // Paid at most once: every reference of one payment, together.
    const references = new Map<string, Set<string>>()
    const add = (payment: string, reference: string): void => {
      const set = references.get(payment) ?? new Set<string>()
      set.add(reference)
      references.set(payment, set)
    }
    for (const reference of service.keys()) if (reference.startsWith(`${tag}S`)) add(paymentOf(reference), reference)
    for (const intent of ledger.payouts) for (const reference of intent.references) add(intent.id, reference)
    // What the desk shows for each reference: its rows (run, status, reason) or its payout's state.
    const shown = new Map<string, Set<string>>()
    for (const rows of rowsOf.values())
      for (const row of rows) {
        const seen = shown.get(row.item.reference) ?? new Set<string>()
        seen.add(`${row.status}${row.message ? ` (${row.message})` : ''}`)
        shown.set(row.item.reference, seen)
      }
    const doublePayments: SoakReport['doublePayments'] = []
    for (const [payment, refs] of references) {
      const paidRefs = [...refs].filter(paid)
      if (paidRefs.length > 1)
        doublePayments.push({
          payment,
          references: paidRefs,
          deskShows: [...refs].map(
            (reference) => `${reference}: ${[...(shown.get(reference) ?? ['in no run'])].join(' / ')}`,
          ),
        })
    }

    // Nothing the user was told was sent is missing.
    const lostPayouts: SoakReport['lostPayouts'] = []
    for (const reference of user.record.toldSent)
      if (!service.has(reference))
        lostPayouts.push({ reference, why: 'shown as sent by the desk, unknown to the service' })

    // The desk's view agrees with the service.
    const disagreements: Disagreement[] = []
    const sentSomewhere = new Set<string>()
    for (const rows of rowsOf.values())
      for (const row of rows) if (row.status !== 'not_sent') sentSomewhere.add(row.item.reference)
    for (const [runId, rows] of rowsOf)
      for (const row of rows) {
        const found = service.get(row.item.reference)
        const desk = row.status
        const agrees =
          desk === 'not_sent'
            ? !found || sentSomewhere.has(row.item.reference)
            : desk === 'failed'
              ? !found || found.status === 'failed'
              : found?.status === desk
        if (!agrees)
          disagreements.push({
            reference: row.item.reference,
            desk: `${desk}${row.message ? ` (${row.message})` : ''}`,
            service: found?.status ?? 'absent',
            where: `run ${runId}`,
          })
      }
    for (const movement of movements) {
      const found = service.get(movement.reference)
      const agrees =
        movement.state === 'failed' ? !found || found.status === 'failed' : found?.status === movement.state
      if (!agrees)
        disagreements.push({
          reference: movement.reference,
          desk: movement.state,
          service: found?.status ?? 'absent',
          where: 'payouts',
        })
    }

    return {
      seed: options.seed,
      iterations: options.iterations,
      seconds: Math.round((Date.now() - started) / 1000),
      loopSeconds,
      settleSeconds,
      runs: runs.length,
      payouts: movements.length,
      sheetRows: ledger.sheets.reduce((n, sheet) => n + sheet.rows.length, 0),
      actions: user.record.actions,
      doubleClicks: user.record.doubleClicks,
      refusals: user.record.refusals,
      faults,
      kills,
      restarts,
      rateLimited,
      quits,
      doublePayments,
      lostPayouts,
      disagreements,
    }
  }
}

function need<T>(result: { ok: true; data: T } | { ok: false; error: { message: string } }): T {
  if (!result.ok) throw new Error(result.error.message)
  return result.data
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

/** The report as the soak prints it. */
export function formatReport(report: SoakReport): string {
  const lines = [
    `soak seed ${report.seed}: ${report.iterations} iterations in ${report.seconds} s (loop ${report.loopSeconds} s, settling ${report.settleSeconds} s)`,
    `runs ${report.runs}, single payouts ${report.payouts}, sheet rows ${report.sheetRows}`,
    `actions ${JSON.stringify(report.actions)} (double clicks ${report.doubleClicks})`,
    `refusals ${JSON.stringify(report.refusals)}`,
    `faults ${Object.values(report.faults).reduce((a, b) => a + b, 0)}: ${JSON.stringify(report.faults)}`,
    `kills ${report.kills.total}: random instants ${report.kills.randomInstant}, at checkpoints ${JSON.stringify(report.kills.atCheckpoint)}; restarts after a kill ${report.restarts}, quits ${report.quits}`,
    ...(report.rateLimited.withRetryAfter + report.rateLimited.withoutRetryAfter > 0
      ? [
          `rate-limited iterations ${report.rateLimited.withRetryAfter + report.rateLimited.withoutRetryAfter} (with Retry-After ${report.rateLimited.withRetryAfter}, without ${report.rateLimited.withoutRetryAfter}): ${report.rateLimited.metered} requests metered, ${report.rateLimited.answered429} answered 429`,
        ]
      : []),
    `double payments ${report.doublePayments.length}`,
    ...report.doublePayments
      .slice(0, 12)
      .map((d) => `  ${d.payment} paid as ${d.references.join(' and ')}; the desk shows ${d.deskShows.join(' | ')}`),
    `lost payouts ${report.lostPayouts.length}${report.lostPayouts.length ? `: ${JSON.stringify(report.lostPayouts.slice(0, 10))}` : ''}`,
    `disagreements ${report.disagreements.length}${report.disagreements.length ? `: ${JSON.stringify(report.disagreements.slice(0, 10))}` : ''}`,
  ]
  return lines.join('\n')
}
