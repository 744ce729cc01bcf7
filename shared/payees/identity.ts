/**
 * Who a payment is for (decision 108): a payee is known by the sheet's payee id (employee number,
 * vendor code) when there is one, else by the e-mail, else by the name, normalised (case, marks,
 * punctuation, titles and word order do not make another payee: "Mr. OBI, Ada" is "Ada Obi").
 * Pure: the book and the checks share it.
 */
import { nameTokens, checkName } from '../rules/name-check'

export type IdentifiedBy = 'id' | 'email' | 'name'

export interface PayeeFields {
  /** The sheet's payee id column (or the payout form's), when it has one. */
  payeeId?: string
  /** The row's own e-mail: never a run-wide one given for every row (decision 53). */
  email?: string
  name: string
}

export interface PayeeIdentity {
  key: string
  by: IdentifiedBy
  /** The name normalised: its words without titles, in order of the alphabet. */
  nameKey: string
}

/** The name as a key: `nameTokens` sorted, so word order and titles make no other payee. */
export function nameKey(name: string): string {
  return [...nameTokens(name)].sort().join(' ')
}

export function emailKey(email: string): string {
  return email.trim().toLowerCase()
}

/** A payee id as a key: surrounding space dropped, case ignored (E017 = e017); zeros kept (017 is not 17). */
export function payeeIdKey(id: string): string {
  return id.trim().replace(/\s+/g, ' ').toLowerCase()
}

/** The payee's key alone: a payee id or an e-mail is read without normalising the name (the book learns a million). */
export function payeeKey(fields: PayeeFields): { key: string; by: IdentifiedBy } {
  const id = fields.payeeId ? payeeIdKey(fields.payeeId) : ''
  if (id) return { key: `id:${id}`, by: 'id' }
  const email = fields.email ? emailKey(fields.email) : ''
  if (email) return { key: `email:${email}`, by: 'email' }
  return { key: `name:${nameKey(fields.name)}`, by: 'name' }
}

export function payeeIdentity(fields: PayeeFields): PayeeIdentity {
  const { key, by } = payeeKey(fields)
  return { key, by, nameKey: by === 'name' ? key.slice('name:'.length) : nameKey(fields.name) }
}

/**
 * Whether two payees may be one person: the same key; or, identified in different ways (an id in
 * one sheet, only a name in another), names that are the same or a close match (initials, order,
 * a letter or two). Two different ids, two different e-mails: two payees, whatever their names.
 */
export function maybeSamePayee(
  a: { key: string; by: IdentifiedBy; name: string },
  b: { key: string; by: IdentifiedBy; name: string },
): boolean {
  if (a.key === b.key) return true
  if (a.by === b.by && a.by !== 'name') return false
  return checkName(a.name, b.name).result !== 'no_match'
}

/**
 * E-mails that cannot tell payees apart: one e-mail on rows of names that are not one person (a
 * run-wide address such as payroll@ filled into every row). Rows with such an e-mail are known by
 * their name instead.
 */
export function sharedEmails(rows: ReadonlyArray<{ email?: string; name: string }>): Set<string> {
  const firstName = new Map<string, string>()
  const shared = new Set<string>()
  for (const row of rows) {
    if (!row.email) continue
    const email = emailKey(row.email)
    if (!email || shared.has(email)) continue
    const seen = firstName.get(email)
    if (seen === undefined) firstName.set(email, row.name)
    else if (nameKey(seen) !== nameKey(row.name) && checkName(seen, row.name).result === 'no_match') shared.add(email)
  }
  return shared
}
