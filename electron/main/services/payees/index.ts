/**
 * The payee book's public face (decisions 109, 116, 166): what the app's wiring, bulk runs and single
 * payouts may use. The rules themselves (identity, account keys, the tripwires) are pure, in
 * shared/payees.
 */
export { createPayeesService, MAX_LOADED_BOOKS } from './payees-service'
export type { CatchUpReport, FlaggedRow, PayeesService, PayeesServiceOptions } from './payees-service'
export type { PayeeDetail, PayeesPage, PayeesQuery } from '../../../../shared/payees/payee-view'
export type { PaidPayment } from './paid-payment'
export type { PayeeSummary } from './payee-book'
export { PAYEES_FOLDER } from './payee-ledger'
export { paidRunRows, paidSinglePayout } from './history-fold'
export { payeeRunHooks } from './payee-run-hooks'
export { createPayeesDomain } from './payees-domain'
export { withPaidPayees } from './paid-journal'
export { explainTripwire, TRIPWIRE_KINDS, DEFAULT_TRIPWIRE_SETTINGS } from '../../../../shared/payees/tripwires'
export type { PaymentToCheck, PaymentTripwires, Tripwire, TripwireSettings } from '../../../../shared/payees/tripwires'
