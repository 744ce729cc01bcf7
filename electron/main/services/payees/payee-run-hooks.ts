/**
 * The payee book's part in bulk runs (decisions 108, 109), wired in one place: it implements the
 * RunHooks bulk exports (bulk/runs.ts) with the payee service: the tripwires of a run's rows, and
 * the rows a run paid learnt into the book of the run's own profile and mode (decision 166: with the
 * record of what the book holds of each run).
 */
import type { RunHooks } from '../bulk/runs'
import { paidRunRows } from './history-fold'
import type { PayeesService } from './payees-service'

export function payeeRunHooks(
  payees: PayeesService,
  log: { warn(message: string, error?: unknown): void },
): Required<Pick<RunHooks, 'checkPayees' | 'payeeCheckBasis' | 'rowsPaid' | 'payeesConfirmed'>> {
  return {
    checkPayees: (scope, rows, signal, take) => payees.checkRows(scope, rows, signal, take),
    payeeCheckBasis: (scope) => payees.checkBasis(scope),
    // The run keeps its confirmations; the book learns them so a later run does not ask again (decision 124).
    async payeesConfirmed(scope, confirmations) {
      await payees.recordConfirmations(scope, confirmations)
    },
    rowsPaid(scope, run) {
      if (run.rows.length === 0) return
      // The run's money is recorded in its journal and rows; the book is derived from them. A learn
      // cut short (a close, a crash) is made again at the next start: the learnt record lacks it
      // (decision 166).
      payees
        .recordRunPaid(scope, { id: run.id, paidRows: run.paidRows }, () => paidRunRows(run, run.rows))
        .catch((error: unknown) => log.warn(`The payee book could not learn the paid rows of run ${run.id}`, error))
    },
  }
}
