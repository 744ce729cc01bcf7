/**
 * A desk for the payee book's tests: a real journal in a temporary user-data folder and the book's
 * service over it, each closed when the test ends.
 */
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach } from 'vitest'
import { openJournal, type Journal } from '../../../../../../electron/main/services/journal/journal'
import { createPayeesService, type PayeesService } from '../../../../../../electron/main/services/payees'

export interface PayeeDesks {
  /** A user-data folder with its journal open. */
  desk(): Promise<{ userData: string; journal: Journal }>
  /** The payee book of a user-data folder (a start of the app); `closeWaitMs` bounds its close. */
  service(userData: string, journal: Pick<Journal, 'list'>, closeWaitMs?: number): PayeesService
}

export function payeeDesks(prefix: string): PayeeDesks {
  const journals: Journal[] = []
  const services: PayeesService[] = []
  afterEach(async () => {
    for (const journal of journals.splice(0)) await journal.close()
    for (const payees of services.splice(0)) await payees.close()
  })
  return {
    async desk() {
      const userData = await mkdtemp(join(tmpdir(), prefix))
      const journal = await openJournal(join(userData, 'journal'))
      journals.push(journal)
      return { userData, journal }
    },
    service(userData, journal, closeWaitMs) {
      const payees = createPayeesService({
        directory: join(userData, 'payees'),
        journal,
        ...(closeWaitMs !== undefined ? { closeWaitMs } : {}),
      })
      services.push(payees)
      return payees
    },
  }
}
