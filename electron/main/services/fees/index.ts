/** The fee service's public face (decision 094): fee estimates and the basis they learn from, and who pays the fees per profile. */
export { FEE_BASIS_MAX, estimateFees, journalFees, latestFees, runFees } from './fee-estimate'
export type { FeeSeen } from './fee-estimate'
export { FeePayerMemory } from './fee-payer-memory'
export type { FeePayerChoice } from './fee-payer-memory'
