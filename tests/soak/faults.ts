/**
 * The faults the soak injects into its Sandbox (docs/sandbox.md, test controls): every kind the
 * desk must survive on the requests that move money and on the reads that verify them.
 */
import type { Random } from './random'

const SINGLE = '/merchant/api/v1/transactions/disburse'
const BULK = '/api/v1/transactions/disburse/bulk'
/** Verification reads: a batch, its payouts, one transaction, one payout. */
const READS = ['/api/v1/transactions/bulk/', '/api/v1/transactions/', '/merchant/api/v1/transactions/']
const SENDS = [SINGLE, BULK]

export interface Fault {
  path: string
  kind: string
  status?: number
  ms?: number
  count?: number
}

/** One fault, picked among the kinds a person's desk meets on a bad day. */
export function pickFault(random: Random): Fault {
  const send = random.pick(SENDS)
  const kind = random.weighted<string>([
    ['after-accept', 3],
    ['before-accept', 1],
    ['hang', 1.5],
    ['reset', 2],
    ['not-json', 1.5],
    ['rate-limit', 1.5],
    ['duplicate', 2],
    ['bank-down', 3],
    ['read-fault', 2],
  ])!
  switch (kind) {
    case 'after-accept':
    case 'before-accept':
      return { path: send, kind, status: random.pick([500, 502, 503, 504]) }
    case 'rate-limit':
      return { path: send, kind, ms: 1000, count: random.int(1, 2) }
    case 'read-fault':
      return {
        path: random.pick(READS),
        kind: random.pick(['hang', 'reset', 'not-json', 'before-accept']),
        status: 503,
        count: random.int(1, 3),
      }
    default:
      return { path: send, kind }
  }
}
