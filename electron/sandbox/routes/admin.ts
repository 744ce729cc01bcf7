/** Test controls under /__sandbox/ (only when started with admin: true). */
import { formatMinorUnits, toMinorUnits } from '../../../shared/money'
import { FaultBook } from '../faults'
import { parseLoadLatency, parseRateLimit } from '../rate-limit'
import { success } from '../replies'
import type { Route } from '../routing'
import { invalidData, notFound } from '../replies'
import { disburse } from './payouts'
import { FieldErrors, requireObjectBody } from '../validation'

export const adminRoutes: Route[] = [
  {
    // A payout made with the profile's key by something other than the desk (a script, a second
    // tool, a leaked key): created exactly as the disburse endpoint creates it, so reconciliation
    // has a payout nobody here sent to find (decision 118). The body is a disburse body (spec 2.6).
    method: 'POST',
    pattern: '/__sandbox/payouts/elsewhere',
    handler: (request, context) => {
      const payout = disburse(requireObjectBody(request.body), context)
      return success('Payout made from elsewhere', { reference: payout.reference, status: payout.status })
    },
  },
  {
    // The fee of a payout changed after the fact (the service re-priced it): reconciliation must
    // see it differ from the fee the desk recorded.
    method: 'POST',
    pattern: '/__sandbox/payouts/:reference/fee',
    handler: (request, context) => {
      const payout = context.state.payouts.get(request.params.reference ?? '')
      if (!payout) throw notFound('Transaction not found')
      const body = requireObjectBody(request.body)
      const errors = new FieldErrors()
      if (typeof body.fee !== 'string' || !/^\d+(\.\d{1,2})?$/.test(body.fee))
        errors.add('fee', 'must be a decimal string with at most two decimal places')
      errors.throwIfAny()
      payout.feeMinor = toMinorUnits(body.fee as string)
      return success('Fee changed', { reference: payout.reference, fee: formatMinorUnits(payout.feeMinor) })
    },
  },
  {
    // An account's holder renamed (a marriage, a business sold, or a fraudster's account reused):
    // name resolution answers the new name from now on, so the payee book sees the name drift.
    method: 'POST',
    pattern: '/__sandbox/accounts/:account/name',
    handler: (request, context) => {
      const account = request.params.account ?? ''
      const body = requireObjectBody(request.body)
      const errors = new FieldErrors()
      if (!/^\+?\d{6,20}$/.test(account)) errors.add('account', 'must be 6 to 20 digits')
      if (typeof body.name !== 'string' || body.name.trim() === '' || body.name.length > 100)
        errors.add('name', 'must be a name of 1 to 100 characters')
      errors.throwIfAny()
      const number = account.replace(/^\+/, '')
      const name = (body.name as string).trim()
      context.state.accountNames.set(number, name)
      return success('Account name changed', { account: number, account_name: name })
    },
  },
  {
    method: 'POST',
    pattern: '/__sandbox/faults',
    handler: (request, context) => {
      const rule = FaultBook.parse(request.body)
      context.faults.add(rule)
      return success('Fault added', {
        path: rule.path,
        kind: rule.kind,
        status: rule.status,
        ms: rule.ms,
        count: rule.remaining,
      })
    },
  },
  {
    // The faults not yet used up, so a test can wait until a request has reached one.
    method: 'GET',
    pattern: '/__sandbox/faults',
    handler: (_request, context) =>
      success(
        'Faults',
        context.faults.pending().map((rule) => ({
          path: rule.path,
          kind: rule.kind,
          status: rule.status,
          ms: rule.ms,
          count: rule.remaining,
        })),
      ),
  },
  {
    method: 'DELETE',
    pattern: '/__sandbox/faults',
    handler: (_request, context) => {
      context.faults.clear()
      return success('Faults cleared', {})
    },
  },
  {
    // A rate limit per key and path group (429 past it) and latency that grows with load: what a
    // real service does when pushed; both off until set, and cleared by DELETE (docs/sandbox.md).
    method: 'POST',
    pattern: '/__sandbox/rate-limit',
    handler: (request, context) => {
      const body = requireObjectBody(request.body)
      const load = serviceLoadOf(context)
      try {
        if ('perSecond' in body) load.setRateLimit(parseRateLimit(body))
        if ('loadLatency' in body)
          load.setLoadLatency(body.loadLatency === null ? null : parseLoadLatency(body.loadLatency))
      } catch (error) {
        throw invalidData({ body: (error as Error).message })
      }
      return success('Rate limit set', { ...load.settings(), ...load.counts })
    },
  },
  {
    method: 'GET',
    pattern: '/__sandbox/rate-limit',
    handler: (_request, context) => {
      const load = serviceLoadOf(context)
      return success('Rate limit', { ...load.settings(), ...load.counts })
    },
  },
  {
    method: 'DELETE',
    pattern: '/__sandbox/rate-limit',
    handler: (_request, context) => {
      const load = serviceLoadOf(context)
      load.setRateLimit(null)
      load.setLoadLatency(null)
      return success('Rate limit cleared', {})
    },
  },
  {
    method: 'POST',
    pattern: '/__sandbox/reset',
    handler: (_request, context) => {
      context.state.reset()
      context.faults.clear()
      return success('Sandbox reset to its seeded state', {})
    },
  },
  {
    // Balances are not part of the spec, but tests need to see debits, fees and refunds.
    method: 'GET',
    pattern: '/__sandbox/balances',
    handler: (_request, context) => {
      const balances = Object.fromEntries(
        [...context.state.balances].map(([currency, minor]) => [currency, formatMinorUnits(minor)]),
      )
      return success('Balances', { ...balances, issuing_USD: formatMinorUnits(context.state.issuingBalanceMinor) })
    },
  },
  {
    // Sets one balance, e.g. to test "Insufficient balance" without huge payouts.
    method: 'POST',
    pattern: '/__sandbox/balances',
    handler: (request, context) => {
      const body = requireObjectBody(request.body)
      const errors = new FieldErrors()
      const currency = errors.oneOf(body, 'currency', 'currency', ['NGN', 'KES', 'GHS', 'ZAR', 'issuing_USD'] as const)
      const amount = body.amount
      let minor: bigint | undefined
      if (typeof amount !== 'string' || !/^\d+(\.\d{1,2})?$/.test(amount))
        errors.add('amount', 'must be a decimal string with at most two decimal places')
      else minor = toMinorUnits(amount)
      errors.throwIfAny()
      if (currency === 'issuing_USD') context.state.issuingBalanceMinor = minor ?? 0n
      else if (currency) context.state.balances.set(currency, minor ?? 0n)
      return success('Balance set', {})
    },
  },
]

function serviceLoadOf(context: Parameters<Route['handler']>[1]) {
  if (!context.load) throw new Error('sandbox: no service load while replaying')
  return context.load
}
