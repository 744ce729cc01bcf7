import type { MovementView } from '../../../shared/domain/journal'

/** Newest first, as every list of payouts is shown. */
export function newestFirst(movements: MovementView[]): MovementView[] {
  return [...movements].sort((a, b) => b.createdAt.localeCompare(a.createdAt))
}

/**
 * The list main answered, merged with what this screen learned while the answer was on its way.
 * A list read before a payout was sent (or before its last event) must not take it off the screen:
 * a movement the list lacks stays when it arrived after the list was asked for, and of two copies
 * of one movement the one updated last wins (a movement's state only moves forward).
 */
export function mergeListed(
  current: MovementView[],
  listed: MovementView[],
  arrivedSinceAsked: ReadonlySet<string>,
): MovementView[] {
  const byReference = new Map(listed.map((movement) => [movement.reference, movement]))
  for (const movement of current) {
    const fromList = byReference.get(movement.reference)
    if (fromList === undefined) {
      if (arrivedSinceAsked.has(movement.reference)) byReference.set(movement.reference, movement)
    } else if (movement.updatedAt > fromList.updatedAt) {
      byReference.set(movement.reference, movement)
    }
  }
  return newestFirst([...byReference.values()])
}
