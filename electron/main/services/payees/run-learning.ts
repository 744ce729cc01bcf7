/**
 * A bulk run's paid rows learnt by the payee book, and the learnt record kept up with them
 * (decision 166). The runs tell their paid rows as they are paid and, at each start, all of them
 * (bulk/run-payee-checks.ts); a run the record says the book holds whole is passed over before its
 * rows are even turned into payments. The learns of one run go one after another, so when one is
 * answered every row told before it is learnt too and the record may say so; once a learn of a run
 * failed, the record of that run stays where it was until the next start learns the run again.
 */
import type { ProfileScope } from '../../../../shared/domain/journal'
import type { LearntRecord } from './learnt-record'
import type { PaidPayment } from './paid-payment'

/** What a run told: its id, and how many of its rows were paid when it told them. */
export interface RunPaidSoFar {
  id: string
  paidRows: number
}

interface RunChain {
  tail: Promise<unknown>
  failed: boolean
}

export class RunLearning {
  private readonly chains = new Map<string, RunChain>()

  constructor(
    private readonly record: LearntRecord,
    private readonly learn: (scope: ProfileScope, payments: readonly PaidPayment[]) => Promise<number>,
  ) {}

  /**
   * Learns a run's rows told paid (`payments`, made only when the book may lack them) and notes the
   * run's paid rows as held; answers how many were new to the book.
   */
  learnRun(scope: ProfileScope, run: RunPaidSoFar, payments: () => readonly PaidPayment[]): Promise<number> {
    let chain = this.chains.get(run.id)
    if (!chain) this.chains.set(run.id, (chain = { tail: Promise.resolve(), failed: false }))
    const own = chain
    const work = own.tail.then(async () => {
      if (this.record.runPaid(run.id) >= run.paidRows) return 0
      try {
        const added = await this.learn(scope, payments())
        if (!own.failed) await this.record.noteRun(run.id, run.paidRows)
        return added
      } catch (error) {
        own.failed = true
        throw error
      }
    })
    own.tail = work.catch(() => undefined)
    return work
  }
}
