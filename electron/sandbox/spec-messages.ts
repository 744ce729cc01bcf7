/**
 * The error and status texts the payments service spec gives (../shared/spec/payments-service.md),
 * as the Sandbox answers them. In one module so the routes that answer them and the fault book that
 * imitates them both read them here, and neither imports the other.
 */

export const INSUFFICIENT_BALANCE = 'Insufficient balance'
export const DUPLICATE_PAYOUT_REFERENCE = 'Duplicate payout reference'
export const PAYOUT_PROCESSING_MESSAGE = 'Payout is being processed'
export const DUPLICATE_BATCH_REFERENCE = 'Duplicate batch reference'
export const DUPLICATE_CARD_REFERENCE = 'Duplicate card reference'
export const INSUFFICIENT_ISSUING_BALANCE = 'Insufficient issuing balance'
export const CARD_NOT_SUPPORTED = 'Card not supported'
export const DUPLICATE_PAYMENT_REFERENCE = 'Duplicate payment reference'
export const TRANSACTION_NOT_FOUND = 'Transaction not found'
export const ALREADY_COMPLETED = 'Transaction has already been completed'
export const AUTHORIZATION_NOT_REQUIRED = 'Authorization is not required for this transaction'
export const CHARGE_SUCCESS_MESSAGE = 'Card charged successfully'
