/**
 * Several messages about one thing in one line of text (a grid cell, a tooltip): each a sentence
 * of its own, set apart by a middle dot, so a failure and a name check never run together as one
 * ("Failed: Invalid account · No match: the bank has …").
 */
export function messagesText(messages: ReadonlyArray<string | null | undefined>): string {
  return messages
    .map((message) => (message ?? '').trim().replace(/[.;,:]+$/, ''))
    .filter((message) => message !== '')
    .join(' · ')
}
