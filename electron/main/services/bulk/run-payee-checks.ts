/**
 * Keeps each run's tripwires current and tells the payee book what a run paid (decisions 108, 109),
 * through the RunHooks another domain gives (the payee book's wiring: payees/payee-run-hooks.ts):
 * - a run's rows are checked at import, after each edit, and as the bank's names come in (a run's
 *   summary changed while it is in name checks or review); one check per run at a time, a change
 *   while it runs asks for one more after it; the findings go on the rows (RunService.setTripwires);
 * - rows that reached paid are told once each in this session, and at each start every run's paid
 *   rows are told (`tellEveryRun`): the book keeps a record of what it holds of each run, passes
 *   over a run it holds whole and learns what a close or crash cut short (decision 166).
 * - the confirmations recorded in a run are told to the book (decision 124), so a later run does not
 *   hold the same payee's account again.
 * A check that fails is logged and leaves the rows as they were. A flag never drops a row; a
 * changed or shared account holds it until confirmed (shared/bulk/payee-holds.ts).
 * Send waits for the check of the run's last change (`settled`, decision 169): a row the tripwires
 * hold is never sent because Send came before its check.
 * A check in review whose inputs are those of the last check that landed (an acknowledgement, a
 * note, the findings themselves changed the run, not what the check reads) is not made again
 * (decision 174: payee-check-inputs.ts); Send then waits only for the reading of the rows.
 * A check under way when the run leaves names and review (Send) is stopped: its findings would be
 * dropped (a run sent keeps the flags it was sent with), and a check of 100,000 rows holds some
 * 50 MB in main and more in the book's worker while the run starts sending.
 */
import type { RunRow, RunSummary } from '../../../../shared/domain/bulk-run'
import type { PaymentToCheck, PaymentsToCheck } from '../../../../shared/payees/tripwires'
import { CheckInputs, inputsDigest } from './payee-check-inputs'
import type { FlaggedPayment, RunHooks } from './run-hooks'
import { sameFlags, type RowFlags } from './run/run-tripwires'
import type { RunService } from './run/run-service'

/** A burst of changes (name checks answering row by row) is checked once, this long after it began. */
const SETTLE_MS = 400

interface RunChecks {
  /** Stops the check under way (the run has left names and review). */
  stop: AbortController | null
  /** The check under way (null when none), ended (with or without findings) when it resolves. */
  work: Promise<void> | null
  again: boolean
  timer: ReturnType<typeof setTimeout> | null
  /** Paid rows already told, by row index. */
  told: Set<number>
  /** The run's confirmations already told to the book (its list only grows). */
  confirmationsTold: number
  /** The digest of what the last check that landed read (decision 174); null while none holds. */
  checked: string | null
}

export interface RunPayeeChecks {
  /** Asks for a check of the run's rows soon (at import, after an edit). */
  schedule(runId: string): void
  /** A run's summary changed: a check while names come in, and paid rows for the book. */
  runChanged(summary: RunSummary): void
  /** Tells the book the run's confirmations it was not told yet (decision 124). */
  tellConfirmed(summary: Pick<RunSummary, 'id'>): void
  /** At start, once the runs are loaded: every run's paid rows not told yet in this session (decision 166). */
  tellEveryRun(): void
  /**
   * Resolves once the run's rows carry the findings of its last change (decision 169): a check
   * waiting for its burst to settle starts now, one under way is waited for. Send asks it.
   */
  settled(runId: string): Promise<void>
  /** Resolves once no check is running or waiting (tests). */
  idle(): Promise<void>
  /** The desk is closing: checks waiting are dropped, none starts again (a check mid-way ends unlogged). */
  close(): void
}

/** A row's flags as a check found them, the row's own flags (and payee key) when they are the same. */
function rowFlagsOf(row: RunRow, flags: FlaggedPayment): RowFlags {
  const payeeKey = flags.matchedPayee ?? flags.payee?.key
  return {
    index: row.index,
    tripwires: row.tripwires && sameFlags(row.tripwires, flags.tripwires) ? row.tripwires : flags.tripwires,
    ...(payeeKey ? { payeeKey: payeeKey === row.payeeKey ? row.payeeKey : payeeKey } : {}),
  }
}

function paymentFrom(row: RunRow, currency: string, runWideEmail: string | undefined): PaymentToCheck {
  const email = row.item.customer_email.trim()
  return {
    row: row.item.row,
    name: row.item.customer_name,
    ...(row.item.payee_id ? { payeeId: row.item.payee_id } : {}),
    ...(email !== '' && email.toLowerCase() !== runWideEmail ? { email } : {}),
    account: { type: 'bank_account', bank: row.item.bank_code, account: row.item.account_number },
    currency,
    amount: row.item.amount,
    ...(row.resolvedName ? { resolvedName: row.resolvedName } : {}),
  }
}

export function createRunPayeeChecks(
  runs: () => RunService,
  hooks: Pick<RunHooks, 'checkPayees' | 'payeeCheckBasis' | 'rowsPaid' | 'payeesConfirmed'>,
  log: { warn(message: string, error?: unknown): void },
): RunPayeeChecks {
  const checks = new Map<string, RunChecks>()
  const running = new Set<Promise<void>>()
  let closed = false
  const entryOf = (runId: string): RunChecks => {
    let entry = checks.get(runId)
    if (!entry)
      checks.set(
        runId,
        (entry = {
          stop: null,
          work: null,
          again: false,
          timer: null,
          told: new Set(),
          confirmationsTold: 0,
          checked: null,
        }),
      )
    return entry
  }

  async function check(runId: string, signal: AbortSignal): Promise<void> {
    const checkPayees = hooks.checkPayees
    if (!checkPayees) return
    const service = runs()
    const state = service.stateOf(runId)
    if (state.stage !== 'resolving' && state.stage !== 'review') return
    const entry = entryOf(runId)
    const scope = { profileId: state.profileId, mode: state.mode }
    const runWide = state.imported?.run_wide?.customer_email?.value?.trim().toLowerCase()
    const rows = service.rows(runId).filter((row) => !row.excluded)
    const paymentOf = (row: RunRow) => paymentFrom(row, state.currency, runWide)
    // Read before anything of the check leaves: a learn asked meanwhile changes the basis.
    const basis = hooks.payeeCheckBasis ? `${scope.profileId} ${scope.mode} ${hooks.payeeCheckBasis(scope)}` : null
    // In review the names are in: a change since the last check may be one it does not read.
    if (basis !== null && entry.checked !== null && state.stage === 'review') {
      const now = await inputsDigest(basis, rows, paymentOf, signal)
      if (now === null || now === entry.checked) return
    }
    entry.checked = null
    // Digested in review only: while names come in the next check reads other names anyway (at
    // 100,000 rows, digesting every check of the name checks cost main 0.8 s).
    const inputs = basis !== null && state.stage === 'review' ? new CheckInputs(basis) : null
    // Made into payments a slice at a time, as the book's worker is sent them (a turn each): made
    // all at once they held main some 50 ms (decision 165) and 40 MB for the whole check.
    const payments: PaymentsToCheck = {
      length: rows.length,
      slice: (start, end) => {
        const slice = rows.slice(start, end)
        const made = slice.map(paymentOf)
        inputs?.take(start, slice, made)
        return made
      },
    }
    // Each slice of findings is made into the rows' flags as it comes, a row's own flags kept when
    // the same (decision 176): held whole until the check ended, the flags of 100,000 rows were
    // some 30 MB of main's heap, most of them the same as the rows had.
    const found: RowFlags[] = []
    const take = (flagged: readonly FlaggedPayment[]): void => {
      for (const flags of flagged) found.push(rowFlagsOf(rows[flags.index] as RunRow, flags))
    }
    take(await checkPayees(scope, payments, signal, take))
    if (signal.aborted) return
    await service.setTripwires(runId, found)
    // Every finding is on the rows only while the run is still in names or review (setTripwires).
    const stage = service.stateOf(runId).stage
    if (inputs && !signal.aborted && stage === 'review') entry.checked = inputs.digest(rows.length)
  }

  function start(runId: string): void {
    const entry = entryOf(runId)
    entry.timer = null
    if (entry.work) {
      entry.again = true
      return
    }
    entry.again = false
    const stop = (entry.stop = new AbortController())
    const work = check(runId, stop.signal)
      .catch((error: unknown) => {
        if (!closed && !stop.signal.aborted) log.warn(`The payee checks of run ${runId} could not run`, error)
      })
      .finally(() => {
        running.delete(work)
        entry.stop = null
        entry.work = null
        if (entry.again) schedule(runId)
      })
    entry.work = work
    running.add(work)
  }

  function schedule(runId: string): void {
    if (!hooks.checkPayees || closed) return
    const entry = entryOf(runId)
    if (entry.timer) return
    entry.timer = setTimeout(() => start(runId), SETTLE_MS)
    entry.timer.unref?.()
  }

  function tellPaid(summary: RunSummary): void {
    const rowsPaid = hooks.rowsPaid
    if (!rowsPaid || summary.counts.success === 0) return
    const entry = entryOf(summary.id)
    if (entry.told.size >= summary.counts.success) return
    const service = runs()
    const state = service.stateOf(summary.id)
    const paid = service.rows(summary.id).filter((row) => row.status === 'success' && !entry.told.has(row.index))
    if (paid.length === 0) return
    for (const row of paid) entry.told.add(row.index)
    const runWideEmail = state.imported?.run_wide?.customer_email?.value
    rowsPaid(
      { profileId: state.profileId, mode: state.mode },
      {
        id: state.id,
        updatedAt: state.updatedAt,
        currency: state.currency,
        ...(runWideEmail ? { runWideEmail } : {}),
        rows: paid,
        paidRows: entry.told.size,
      },
    )
  }

  /**
   * The run's confirmations the book has not been told this session (decision 124): told again
   * after a restart, the book learning each once, so one lost to a crash before the book's write
   * is learnt at the next start.
   */
  function tellConfirmed(summary: Pick<RunSummary, 'id'>): void {
    const payeesConfirmed = hooks.payeesConfirmed
    if (!payeesConfirmed) return
    const state = runs().stateOf(summary.id)
    const all = state.confirmations ?? []
    const entry = entryOf(summary.id)
    if (entry.confirmationsTold >= all.length) return
    const fresh = all.slice(entry.confirmationsTold)
    entry.confirmationsTold = all.length
    const work = payeesConfirmed({ profileId: state.profileId, mode: state.mode }, fresh)
      .catch((error: unknown) => {
        log.warn(`The payee book could not learn the confirmations of run ${summary.id}`, error)
        entry.confirmationsTold = Math.min(entry.confirmationsTold, all.length - fresh.length)
      })
      .finally(() => running.delete(work))
    running.add(work)
  }

  return {
    schedule,
    tellConfirmed,
    tellEveryRun() {
      for (const summary of runs().list()) {
        try {
          tellPaid(summary)
        } catch (error) {
          log.warn(`The payee book could not follow run ${summary.id}`, error)
        }
      }
    },
    runChanged(summary) {
      try {
        tellConfirmed(summary)
        if (summary.stage === 'resolving' || summary.stage === 'review') schedule(summary.id)
        else {
          checks.get(summary.id)?.stop?.abort()
          tellPaid(summary)
        }
      } catch (error) {
        log.warn(`The payee book could not follow run ${summary.id}`, error)
      }
    },
    close() {
      closed = true
      for (const entry of checks.values()) {
        if (entry.timer) clearTimeout(entry.timer)
        entry.timer = null
        entry.again = false
        entry.stop?.abort()
      }
    },
    async settled(runId) {
      const entry = checks.get(runId)
      if (!entry || !hooks.checkPayees) return
      // A check's findings change the run, which asks for one more check; that one reads what the
      // last read (it is not made: decision 174), or finds the same and changes nothing, so this ends.
      for (;;) {
        if (entry.timer && !closed) {
          clearTimeout(entry.timer)
          start(runId)
        }
        if (!entry.work) return
        await entry.work
      }
    },
    async idle() {
      while (running.size > 0 || [...checks.values()].some((entry) => entry.timer || entry.work))
        await (running.size > 0 ? Promise.all(running) : new Promise((resolve) => setTimeout(resolve, SETTLE_MS)))
    },
  }
}
