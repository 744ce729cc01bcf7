/** The limits' public face (decision 094): the controls kept per profile, the gate every send passes, the channels. */
export { createControlsStore } from './controls-store'
export type { ControlsStore, ProfileControls } from './controls-store'
export { createLimitGate } from './limit-gate'
export type { LimitGate } from './limit-gate'
export { createLimitsDomain } from './limits-domain'
export { sentToday } from './sent-today'
export type { FailedPayoutsOf } from './sent-today'
