/** Sending's public face (decision 094): the one failure policy (send-policy.ts), joined double clicks, the last balance refusal. */
export { lastBalanceRefusal } from './balance-refusals'
export { InFlight } from './in-flight'
export { checkpointHooks, sendMoney } from './send-policy'
export type { SendHooks, SendOutcome } from './send-policy'
