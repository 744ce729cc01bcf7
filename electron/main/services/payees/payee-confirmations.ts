/**
 * The confirmations a payee book keeps (decision 124): beside the ledger of paid payments, one
 * file per profile and mode, `<profile>.<mode>.confirmations.jsonl`, a confirmation per line,
 * appended and fsynced. Confirmations are few (one per changed or shared account someone checked),
 * so the file is read whole when its book loads, and the snapshot does not carry them. A torn last
 * line is skipped; the run that recorded the confirmation keeps it too, and tells the book again.
 */
import { CONFIRMATION_METHODS, type PayeeConfirmation } from '../../../../shared/payees/confirmations'
import { TRIPWIRE_KINDS } from '../../../../shared/payees/tripwires'
import { appendLines, readLines } from './line-reader'

export function confirmationsFile(ledgerFile: string): string {
  return ledgerFile.replace(/\.jsonl$/, '.confirmations.jsonl')
}

const text = (value: unknown): value is string => typeof value === 'string'

/** A line back into a confirmation; null when it is not one (a torn line, another version's). */
export function decodeConfirmation(line: string): PayeeConfirmation | null {
  let value: unknown
  try {
    value = JSON.parse(line)
  } catch {
    return null
  }
  if (!value || typeof value !== 'object') return null
  const c = value as Partial<PayeeConfirmation>
  if (
    !text(c.id) ||
    !text(c.by) ||
    !text(c.at) ||
    !text(c.accountKey) ||
    !text(c.account) ||
    !text(c.payeeKey) ||
    !text(c.name) ||
    !(CONFIRMATION_METHODS as readonly unknown[]).includes(c.method) ||
    !Array.isArray(c.kinds) ||
    !c.kinds.every((kind) => (TRIPWIRE_KINDS as readonly unknown[]).includes(kind))
  )
    return null
  return c as PayeeConfirmation
}

/** Every confirmation of the file, in order; a missing file holds none. */
export async function readConfirmations(
  file: string,
): Promise<{ confirmations: PayeeConfirmation[]; unreadable: number }> {
  const confirmations: PayeeConfirmation[] = []
  let unreadable = 0
  const read = await readLines(file, (line) => {
    const confirmation = decodeConfirmation(line)
    if (confirmation) confirmations.push(confirmation)
    else unreadable++
  })
  if (read.rest !== '') unreadable++
  return { confirmations, unreadable }
}

/** Appends confirmations and fsyncs them; a torn last line is closed first. */
export async function appendConfirmations(file: string, confirmations: readonly PayeeConfirmation[]): Promise<void> {
  await appendLines(
    file,
    confirmations.map((confirmation) => JSON.stringify(confirmation)),
  )
}
