/** The journal's public face (decision 094): its types, and the reconciler's verifiers and findings. */
export type { Journal, NewEvent, NewIntent } from './journal'
export { eventOfFinding, repeatsLastFinding } from './reconciler'
export type { VerifiedOutcome, Verifier } from './reconciler'
