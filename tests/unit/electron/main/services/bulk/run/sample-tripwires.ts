/**
 * Tripwires the payee book could put on a run's rows, for tests that set them by hand: a changed
 * account (it holds its row), an account another payee uses (it holds), a new account (it flags).
 */
import type { Tripwire } from '../../../../../../../shared/payees/tripwires'

export const CHANGED: Tripwire = {
  kind: 'account_changed',
  account: '044 1000000007',
  lastAccounts: ['044 2000000001'],
  lastPaidAt: '2026-10-31T10:00:00.000Z',
  identifiedBy: 'id',
}
export const SHARED: Tripwire = {
  kind: 'shared_account',
  account: '044 1000000014',
  others: [{ name: 'Somebody Else', where: 'book' }],
}
export const NEW: Tripwire = { kind: 'new_account', account: '044 1000000021' }
