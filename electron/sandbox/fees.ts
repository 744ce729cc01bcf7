/**
 * Fee rules of the simulator. The spec does not publish a fee schedule (section 8), so these are
 * our documented choice (docs/sandbox.md). All arithmetic is in bigint minor units.
 */

/** value * numerator / denominator rounded half up (values are never negative here). */
function proportionHalfUp(value: bigint, numerator: bigint, denominator: bigint): bigint {
  return (value * numerator * 2n + denominator) / (denominator * 2n)
}

/** Payout fee: 1% of the amount, rounded half up to the minor unit, capped at 1,000.00. */
export function payoutFee(amountMinor: bigint): bigint {
  const fee = proportionHalfUp(amountMinor, 1n, 100n)
  return fee > 100_000n ? 100_000n : fee
}

/** Card charge fee: 1.5% of the amount, rounded half up, capped at 2,000.00. */
export function chargeFee(amountMinor: bigint): bigint {
  const fee = proportionHalfUp(amountMinor, 15n, 1000n)
  return fee > 200_000n ? 200_000n : fee
}

/** VAT on a charge fee: 7.5% of the fee, rounded half up. */
export function chargeVat(feeMinor: bigint): bigint {
  return proportionHalfUp(feeMinor, 75n, 1000n)
}

/** Issuing fee debited from the USD issuing balance for each virtual card: 1.00 USD. */
export const CARD_ISSUING_FEE_MINOR = 100n
