/**
 * Single payouts learnt by the payee book as they succeed (decision 109): a wrapper of the journal,
 * like the movement log, so no payout path has to remember to tell the book. A payout movement
 * whose state becomes success is learnt into its own profile's and mode's book; the journal stays
 * the record of money, the book only follows it (a failure to learn is logged, never the payout's).
 */
import type { Journal } from '../journal'
import { paidSinglePayout } from './history-fold'
import type { PayeesService } from './payees-service'

export function withPaidPayees(
  journal: Journal,
  payees: Pick<PayeesService, 'recordPaid'>,
  log: { warn(message: string, error?: unknown): void },
): Journal {
  const learn = (reference: string): void => {
    const movement = journal.get(reference)
    const payment = movement ? paidSinglePayout(movement) : null
    if (!movement || !payment) return
    payees
      .recordPaid({ profileId: movement.profileId, mode: movement.profileMode }, [payment])
      .catch((error: unknown) => log.warn(`The payee book could not learn payout ${reference}`, error))
  }
  return {
    get status() {
      return journal.status
    },
    record: (intent) => journal.record(intent),
    async append(reference, event) {
      const movement = await journal.append(reference, event)
      if (event.state === 'success') learn(reference)
      return movement
    },
    async appendMany(entries) {
      await journal.appendMany(entries)
      for (const entry of entries) if (!('intent' in entry) && entry.event.state === 'success') learn(entry.reference)
    },
    get: (reference) => journal.get(reference),
    has: (reference) => journal.has(reference),
    list: (filter) => journal.list(filter),
    verify: () => journal.verify(),
    close: () => journal.close(),
  }
}
