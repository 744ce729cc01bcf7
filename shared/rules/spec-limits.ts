/**
 * The payments service's limits (spec section 8), each named after whose limit it is, and the
 * desk's own where the spec gives none. One place, so two limits of different endpoints can never
 * again share a name ("reference minimum length" was 5 for a bulk payout and 8 for a charge).
 */

/** A bulk payout's batch_reference: 5 to 50 characters (spec 8). */
export const BULK_BATCH_REFERENCE_LENGTH = { min: 5, max: 50 } as const

/** Each payouts[].reference of a bulk payout: 5 to 50 characters (spec 8). */
export const BULK_PAYOUT_REFERENCE_LENGTH = { min: 5, max: 50 } as const

/** Payouts per bulk batch: at least 2, at most 50 (spec 8). */
export const BULK_BATCH_PAYOUTS = { min: 2, max: 50 } as const

/** A card charge's reference: at least 8 characters (spec 8). */
export const CHARGE_REFERENCE_MIN_LENGTH = 8

/**
 * The desk's own, the spec giving none: a charge reference at most 64 characters, so it reads back
 * whole in History, documents and exports.
 */
export const CHARGE_REFERENCE_MAX_LENGTH = 64

/**
 * The desk's own, the spec giving no length for a single payout's reference: at least 8 (a charge's
 * minimum, so a typed reference is never trivially short) and at most 50 (a bulk payout's maximum).
 */
export const SINGLE_PAYOUT_REFERENCE_LENGTH = { min: 8, max: 50 } as const

/** Metadata of payouts and charges: at most 5 keys, each name at most 20 characters (spec 8). */
export const METADATA_MAX_KEYS = 5
export const METADATA_KEY_MAX_LENGTH = 20
