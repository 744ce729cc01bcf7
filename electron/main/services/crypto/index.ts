/** The crypto service's public face (decision 094): the charge payload's encryption (spec 3.1). */
export { chargeKeyBytes, encryptChargePayload } from './charge-encryption'
