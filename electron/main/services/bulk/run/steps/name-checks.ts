/**
 * The name-checks step: the account name of every row not yet checked, from the service's bank
 * account resolution (spec 4.1), one request per distinct account, as many at a time as the
 * profile's pace allows (decision 144; `concurrency` without one), its pace said in words;
 * Cancel stops it between rows. A row whose check cannot reach the service stays unchecked (a
 * later check does it), and the run says why (`nameCheckError`: the Payouts screen's words for a
 * refused key or an unreachable service); a refused key stops the step at once, since every row
 * would be refused alike. An account the service refuses makes the row unsendable. Finished, the
 * run moves to review, where rows left unchecked keep Send refused (decision 50).
 */
import type { RunRow } from '../../../../../../shared/domain/bulk-run'
import type { BankResolution } from '../../../../../../shared/domain/lookups'
import { checkName } from '../../../../../../shared/rules/name-check'
import { resolutionCountryOf } from '../../../api'
import { AppFailure } from '../../../../../../shared/result'
import { ApiFailure } from '../../../api'
import type { LiveRun, ResolveBank } from '../live-run'
import { pacedLanes, runPool } from '../pool'
import { AnswerMeter, checkingInWords } from '../run-pace'
import { revalidateRow } from '../run-rows'
import { moveTo } from '../stages'
import type { RunStepContext } from './step-context'

/** How often a long step reports its progress (and the rows it changed) to the screen. */
export { PROGRESS_EVERY_MS } from '../autosave'

export async function checkNames(run: LiveRun, context: RunStepContext, concurrency: number): Promise<void> {
  const { autosave } = context
  delete run.state.nameCheckError
  const todo = run.rows.filter((r) => !r.excluded && r.resolution === 'unchecked' && r.errors.length === 0)
  const started = Date.now()
  let done = 0
  autosave.setProgress(run, { step: 'resolving', done, total: todo.length, etaSeconds: null })
  // One profile look-up (key from the keychain, one client) for the whole step, not one per row;
  // and one request per distinct account: rows paying the same account share its answer.
  const { lookups, pace } = await context.apiFor(run.state.profileId)
  const meter = new AnswerMeter()
  const answers = new Map<string, Promise<BankResolution>>()
  const resolveOnce: ResolveBank = (bank, account) => {
    const key = `${bank}\u0000${account}`
    let answer = answers.get(key)
    if (!answer) {
      answer = lookups.resolveBank({ bank, account, currency: resolutionCountryOf(run.state.currency) })
      answers.set(key, answer)
    }
    return answer
  }
  const checked = (): void => {
    autosave.scheduleRowsSave(run)
    meter.answered()
    done++
    // Progress (and the rows changed with it) goes out at most every PROGRESS_EVERY_MS, not per row.
    const elapsed = (Date.now() - started) / 1000
    autosave.progressSoon(run, {
      step: 'resolving',
      done,
      total: todo.length,
      etaSeconds: done > 0 ? Math.round((elapsed / done) * (todo.length - done)) : null,
      pace: checkingInWords(meter),
    })
  }
  // The pool's lanes go to distinct accounts: a row waiting on an answer another row asked for
  // never holds a lane, so as many requests as there are lanes are in flight while any are left.
  const byAccount = new Map<string, RunRow[]>()
  for (const row of todo) {
    const key = `${row.item.bank_code}\u0000${row.item.account_number}`
    const rows = byAccount.get(key)
    if (rows) rows.push(row)
    else byAccount.set(key, [row])
  }
  // A refused key is refused for every row: the step stops at the first.
  const keyRefused = (): boolean => run.state.nameCheckError?.code === 'unauthorized'
  await runPool(
    [...byAccount.values()],
    pacedLanes(pace, concurrency),
    async (rows) => {
      for (const row of rows) {
        if (run.cancelled || keyRefused()) return
        await checkRowName(run, row, context, resolveOnce)
        checked()
      }
    },
    () => run.cancelled || keyRefused(),
  )
  const finished = !run.cancelled
  run.state.resolving = false
  if (finished) moveTo(run.state, 'review', 'checks_finished')
  autosave.setProgress(run, null)
  await Promise.all([autosave.saveRowsNow(run), autosave.saveState(run)])
}

/**
 * Checks one row's account name (with the step's shared answers, or alone after an edit), and
 * tells the row changed as it changes (its figures never lag it: decision 164).
 */
export async function checkRowName(
  run: LiveRun,
  row: RunRow,
  context: Pick<RunStepContext, 'apiFor' | 'autosave'>,
  resolveBank?: ResolveBank,
): Promise<void> {
  try {
    let resolved: BankResolution
    if (resolveBank) resolved = await resolveBank(row.item.bank_code, row.item.account_number)
    else {
      const { lookups } = await context.apiFor(run.state.profileId)
      resolved = await lookups.resolveBank({
        bank: row.item.bank_code,
        account: row.item.account_number,
        currency: resolutionCountryOf(run.state.currency),
      })
    }
    row.resolvedName = resolved.accountName
    const { result } = checkName(row.item.customer_name, resolved.accountName)
    // Confirmation of Payee's classes: only a match is 'matched'; a close match shows both names,
    // a no match needs an acknowledgement before a live run is sent.
    row.nameCheck = result
    row.resolution = result === 'match' ? 'matched' : 'mismatch'
    delete row.resolutionMessage
  } catch (error) {
    if (error instanceof ApiFailure && error.code === 'rejected') {
      row.resolution = 'unresolvable'
      row.resolutionMessage = error.message
    } else {
      // A refused key, an unreachable service, an unreadable answer: the row stays unchecked (a
      // later check can do it) and the run says why, once.
      row.resolution = 'unchecked'
      row.resolutionMessage = `Name check failed: ${(error as Error).message}`
      run.state.nameCheckError ??= {
        code: error instanceof AppFailure ? error.code : 'internal',
        message: (error as Error).message,
      }
    }
  }
  revalidateRow(row, run.state.currency)
  context.autosave.rowChanged(run, row)
}
