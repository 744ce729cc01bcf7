/**
 * One log line per money movement and per change of its state: kind, reference, state and the
 * profile's mode. Only those: the request (recipient, amounts, masked card data) stays in the
 * journal. Wraps the journal so no domain has to remember to log, and the journal stays unaware.
 */
import type { MovementView } from '../../../../shared/domain/journal'
import type { Journal } from '../journal'
import type { AppLog } from './redacting-log'

export function movementLine(movement: MovementView): string {
  return `movement ${movement.kind} ${movement.reference} ${movement.state} (${movement.profileMode} profile)`
}

export function withMovementLog(journal: Journal, log: Pick<AppLog, 'info'>): Journal {
  // In a batch a movement can change state twice: each line says the state that entry set.
  const logState = (reference: string, state: MovementView['state']) => {
    const movement = journal.get(reference)
    if (movement) log.info(movementLine({ ...movement, state }))
  }
  return {
    get status() {
      return journal.status
    },
    async record(intent) {
      const movement = await journal.record(intent)
      log.info(movementLine(movement))
      return movement
    },
    async append(reference, event) {
      const movement = await journal.append(reference, event)
      if (event.state) log.info(movementLine(movement))
      return movement
    },
    async appendMany(entries) {
      await journal.appendMany(entries)
      for (const entry of entries) {
        if ('intent' in entry) logState(entry.intent.reference, 'recorded')
        else if (entry.event.state) logState(entry.reference, entry.event.state)
      }
    },
    get: (reference) => journal.get(reference),
    has: (reference) => journal.has(reference),
    list: (filter) => journal.list(filter),
    verify: () => journal.verify(),
    close: () => journal.close(),
  }
}
