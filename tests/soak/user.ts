/**
 * The soak's user: looks at what the screens show (the same list and view calls the Bulk and
 * Payouts screens make), picks one of the actions those screens offer at that moment, and does it
 * through the desk's IPC router, sometimes twice at once (a double click). After a crash it simply
 * carries on from what the screens show, as a person would: a sheet whose run is not there is
 * imported again, a payout that is not in the list or is shown failed is paid again under a new
 * reference, a run with failed rows gets "Retry failed rows".
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { MovementView } from '../../shared/domain/journal'
import { isFinal } from '../../shared/domain/journal'
import type { RunRow, RunSummary, RunView } from '../../shared/domain/bulk-run'
import { needsNameAcknowledgement } from '../../shared/domain/bulk-run'
import type { BulkOpened } from '../../shared/ipc/channels/bulk'
import { canSendAgain } from '../../shared/domain/payouts'
import type { Result } from '../../shared/result'
import type { Ledger, PayoutIntent } from './ledger'
import type { DeskProcess } from './processes'
import type { Random } from './random'
import { TYPO_ACCOUNT, makeSheet, type Sheet } from './sheets'

export interface UserRecord {
  /** Actions done, by name (a double click counts once here and once in `doubleClicks`). */
  actions: Record<string, number>
  doubleClicks: number
  /** References the screens showed as accepted, paying or paid (the user was told they were sent). */
  toldSent: Set<string>
  /** Answers the router gave that were not ok, by code (expected ones: conflicts, bad requests). */
  refusals: Record<string, number>
}

interface Action {
  name: string
  weight: number
  /** Does it; `twice` fires its last call twice at once (a double click). */
  run(twice: boolean): Promise<void>
}

export class SoakUser {
  readonly record: UserRecord = { actions: {}, doubleClicks: 0, toldSent: new Set(), refusals: {} }
  private sheetCount = 0
  private payoutCount = 0
  /** Runs this user pressed "Retry failed rows" on (a person remembers, mostly). */
  private readonly retried = new Set<string>()
  /**
   * The checkpoint the desk is armed to die at, if any: the actions that pass it are picked more
   * often, so that kills land in every dangerous window (the user still does only what is offered).
   */
  focus: string | null = null

  constructor(
    private readonly random: Random,
    private readonly ledger: Ledger,
    private readonly tag: string,
    /** Where this user keeps the sheets they open (a dropped file reaches the desk as its path). */
    private readonly sheetsDir: string,
  ) {}

  /** One look at the screens and one action among those offered; returns its name (or 'wait'). */
  async step(desk: DeskProcess, options: { creates: boolean }): Promise<string> {
    const actions = await this.offered(desk, options)
    const boost = (action: Action): number => {
      const focus = this.focus ?? ''
      const passes =
        (focus.startsWith('import:') && action.name.startsWith('import')) ||
        (focus.startsWith('retry:') && action.name === 'retry failed rows') ||
        (focus.startsWith('send:') && /^(send|pay|check again)/.test(action.name))
      return passes ? 5 : 1
    }
    const chosen = this.random.weighted(actions.map((action) => [action, action.weight * boost(action)] as const))
    if (!chosen) return 'wait'
    const twice = this.random.chance(0.2)
    this.record.actions[chosen.name] = (this.record.actions[chosen.name] ?? 0) + 1
    if (twice) this.record.doubleClicks++
    await chosen.run(twice)
    return chosen.name
  }

  /** What the Bulk and Payouts screens offer now. */
  private async offered(desk: DeskProcess, options: { creates: boolean }): Promise<Action[]> {
    const runs = need(await desk.call<RunSummary[]>('bulk:runs'), 'bulk:runs')
    const payouts = need(await desk.call<MovementView[]>('payouts:list'), 'payouts:list')
    this.noteTold(payouts)
    const actions: Action[] = []
    const open = runs.filter((run) => run.stage !== 'completed')

    if (options.creates) {
      actions.push({
        name: 'import a sheet',
        weight: open.length < 3 ? 1.2 : 0.15,
        run: (twice) => this.importSheet(desk, this.newSheet(), twice),
      })
      // A sheet whose run is not on the screen (the app died while importing it) is imported again.
      for (const sheet of this.ledger.sheets)
        if (!runs.some((run) => run.fileName === sheet.fileName))
          actions.push({
            name: 'import the sheet again',
            weight: 1.5,
            run: (twice) => this.importSheet(desk, sheet, twice),
          })
      actions.push({
        name: 'send a payout',
        weight: 0.8,
        run: (twice) =>
          this.sendPayout(
            desk,
            this.ledger.newPayout(`${this.tag}P${++this.payoutCount}`, this.amount(), this.account()),
            twice,
          ),
      })
    }

    for (const summary of runs) {
      // Watching a run being paid: its grid shows each row's status (what the user is told).
      if (['submitting', 'monitoring', 'completed'].includes(summary.stage) && this.random.chance(0.3)) {
        const rows = await desk.call<RunRow[]>('bulk:rows', { runId: summary.id })
        if (rows.ok) this.noteRows(rows.data)
      }
      if (summary.stage === 'submitting' || summary.stage === 'monitoring') continue
      const view = await desk.call<RunView>('bulk:run', { runId: summary.id })
      if (!view.ok) continue
      const run = view.data
      if (run.stage === 'resolving' && run.progress)
        actions.push({
          name: 'cancel name checks',
          weight: 0.3,
          run: (twice) => this.act(desk, 'bulk:cancel', { runId: run.id }, twice),
        })
      else if (run.stage === 'resolving') {
        actions.push({
          name: 'check names',
          weight: 1,
          run: (twice) => this.act(desk, 'bulk:resolve', { runId: run.id }, twice),
        })
        actions.push({
          name: 'go to review',
          weight: 0.8,
          run: (twice) => this.act(desk, 'bulk:review', { runId: run.id }, twice),
        })
      }
      if ((run.stage === 'resolving' && !run.progress) || run.stage === 'review') {
        if (run.counts.errors > 0)
          actions.push({ name: 'fix a cell', weight: 1.2, run: (twice) => this.fixCell(desk, run.id, twice) })
      }
      // The review offers "Check them" for rows whose names were never checked, and "I have checked
      // these names" for no-match names; Send once both are done, for two rows or more.
      const readiness = run.readiness
      if (run.stage === 'review' && readiness && readiness.unchecked.count > 0)
        actions.push({
          name: 'check them',
          weight: 1.5,
          run: (twice) => this.act(desk, 'bulk:resolve', { runId: run.id }, twice),
        })
      if (run.stage === 'review' && readiness && readiness.unacknowledged.count > 0)
        actions.push({
          name: 'acknowledge the names',
          weight: 1.5,
          run: (twice) => this.acknowledge(desk, run.id, twice),
        })
      if (run.stage === 'review' && run.totals.rows >= 2 && readiness?.refusal === null)
        actions.push({
          name: 'send the run',
          weight: 2,
          run: (twice) => this.act(desk, 'bulk:submit', { runId: run.id }, twice),
        })
      if (run.stage === 'attention')
        actions.push({
          name: 'check again',
          weight: 2,
          run: (twice) => this.act(desk, 'bulk:recheck', { runId: run.id }, twice),
        })
      // A person retries a run's failed rows, seldom a retry of a retry (a dormant account stays dormant).
      const depth = retryDepth(run.id, runs)
      if (options.creates && run.stage === 'completed' && run.counts.failed > 0 && !run.retriedBy)
        actions.push({
          name: 'retry failed rows',
          weight: (this.retried.has(run.id) ? 0.25 : 1.5) / (1 + depth * depth * 3),
          run: (twice) => this.retry(desk, run.id, twice),
        })
    }

    for (const movement of payouts) {
      if (canSendAgain(movement))
        actions.push({
          name: 'send again',
          weight: 2,
          run: (twice) => this.act(desk, 'payouts:resend', { reference: movement.reference }, twice),
        })
      else if (!isFinal(movement.state))
        actions.push({
          name: 'verify now',
          weight: 0.4,
          run: (twice) => this.act(desk, 'payouts:verify', { reference: movement.reference }, twice),
        })
    }
    if (options.creates) {
      // A payment whose payouts are all failed, or none of which is on the screen, is paid again.
      const shown = new Map(payouts.map((movement) => [movement.reference, movement]))
      for (const intent of this.ledger.payouts) {
        const states = intent.references.map((reference) => shown.get(reference)?.state)
        const settledFailed = states.length > 0 && states.every((state) => state === 'failed' || state === undefined)
        if (settledFailed)
          actions.push({ name: 'pay a payout again', weight: 1, run: (twice) => this.sendPayout(desk, intent, twice) })
      }
    }
    return actions
  }

  private noteTold(payouts: MovementView[]): void {
    for (const movement of payouts)
      if (movement.state === 'processing' || movement.state === 'success') this.record.toldSent.add(movement.reference)
  }

  noteRows(rows: RunRow[]): void {
    for (const row of rows)
      if (row.status === 'pending' || row.status === 'processing' || row.status === 'success')
        this.record.toldSent.add(row.item.reference)
  }

  private newSheet(): Sheet {
    const sheet = makeSheet(`${this.tag}S${String(++this.sheetCount).padStart(3, '0')}`, this.random)
    this.ledger.addSheet(sheet)
    return sheet
  }

  private amount(): string {
    return `${this.random.int(100, 50_000)}.00`
  }

  private account(): string {
    return String(3_000_000_000 + this.random.int(0, 999_999))
  }

  /** A call (twice at once on a double click); refusals are counted, never fatal. */
  private async act(desk: DeskProcess, channel: string, payload: unknown, twice: boolean): Promise<void> {
    const calls = twice ? [desk.call(channel, payload), desk.call(channel, payload)] : [desk.call(channel, payload)]
    for (const result of await Promise.all(calls)) this.count(result)
  }

  private count(result: Result<unknown>): void {
    if (result.ok) return
    const key = `${result.error.code}: ${result.error.message.slice(0, 70)}`
    this.record.refusals[key] = (this.record.refusals[key] ?? 0) + 1
  }

  private async importSheet(desk: DeskProcess, sheet: Sheet, twice: boolean): Promise<void> {
    const path = join(this.sheetsDir, sheet.fileName)
    await mkdir(this.sheetsDir, { recursive: true })
    await writeFile(path, sheet.csv)
    const opened = await desk.call<BulkOpened>('bulk:drop', { file: { name: sheet.fileName, ref: path } })
    this.count(opened)
    if (!opened.ok) return
    const summary = opened.data.summary.sheets.find((s) => s.name === opened.data.summary.selectedSheet)
    if (!summary?.headerRow || !summary.mapping)
      throw new Error(`The soak's sheet ${sheet.fileName} was not recognised`)
    const payload = {
      importId: opened.data.importId,
      sheet: summary.name,
      headerRow: summary.headerRow,
      mapping: [...summary.mapping],
      currency: 'NGN',
    }
    await this.act(desk, 'bulk:import', payload, twice)
  }

  private async fixCell(desk: DeskProcess, runId: string, twice: boolean): Promise<void> {
    const rows = need(await desk.call<RunRow[]>('bulk:rows', { runId }), 'bulk:rows')
    const wrong = rows.find((row) => row.errors.length > 0 && !row.excluded)
    if (!wrong) return
    if (wrong.item.account_number === TYPO_ACCOUNT) {
      const fixed = `20${String(this.random.int(10_000_000, 99_999_999))}`
      await this.act(desk, 'bulk:editRow', { runId, index: wrong.index, field: 'account_number', value: fixed }, twice)
    } else await this.act(desk, 'bulk:exclude', { runId, indexes: [wrong.index], excluded: true }, twice)
  }

  /** "I have checked these names": the no-match names the review lists. */
  private async acknowledge(desk: DeskProcess, runId: string, twice: boolean): Promise<void> {
    const rows = need(await desk.call<RunRow[]>('bulk:rows', { runId }), 'bulk:rows')
    const indexes = rows.filter(needsNameAcknowledgement).map((row) => row.index)
    if (indexes.length > 0) await this.act(desk, 'bulk:acknowledgeNames', { runId, indexes }, twice)
  }

  private async retry(desk: DeskProcess, runId: string, twice: boolean): Promise<void> {
    this.retried.add(runId)
    await this.act(desk, 'bulk:retryFailed', { runId }, twice)
  }

  private async sendPayout(desk: DeskProcess, intent: PayoutIntent, twice: boolean): Promise<void> {
    const reference = need(await desk.call<string>('payouts:newReference'), 'payouts:newReference')
    this.ledger.useReference(intent, reference)
    const body = {
      reference,
      destination: {
        type: 'bank_account',
        amount: intent.amount,
        currency: 'NGN',
        narration: `Soak ${intent.id}`,
        bank_account: { bank: '044', account: intent.account },
        customer: { name: `Payee ${intent.id}`, email: 'payee@example.com' },
      },
    }
    await this.act(desk, 'payouts:send', { body }, twice)
  }
}

/** How many retries deep a run is: 0 for an imported run, 1 for its retry run, and so on. */
function retryDepth(runId: string, runs: readonly RunSummary[]): number {
  let depth = 0
  for (let run = runs.find((r) => r.id === runId); run?.retryOf; run = runs.find((r) => r.id === run!.retryOf)) {
    depth++
    if (depth > 50) break
  }
  return depth
}

function need<T>(result: Result<T>, what: string): T {
  if (!result.ok) throw new Error(`${what} failed: ${result.error.code} ${result.error.message}`)
  return result.data
}
