/**
 * The payouts channels: checks a payout with the shared rules, sends it through the payout sender
 * (journal first), follows it to completion with the watcher, announces the end on the desktop,
 * and tells the renderer of every change. Open payouts are resumed after start-up reconciliation.
 */
import { newPayoutReference } from './payout-reference'
import type { MovementView } from '../../../../shared/domain/journal'
import { OPEN_STATES } from '../../../../shared/domain/journal'
import type { PayoutBody } from '../../../../shared/domain/payouts'
import type { payoutChannels } from '../../../../shared/ipc/channels/payouts'
import {
  BANK_COUNTRY_OF,
  OPERATOR_COUNTRY_OF,
  confirmationMatches,
  payoutBodyProblems,
  referenceProblem,
} from '../../../../shared/rules/payouts'
import type { PayoutLists } from '../../../../shared/rules/payouts'
import { AppFailure } from '../../../../shared/result'
import type { DomainService } from '../domain-service'
import { lookupCacheOf } from '../lookups'
import type { ServiceContext } from '../service-context'
import { createPayoutSender, createPayoutVerifier } from './payout-sender'
import { createPayoutWatcher } from './payout-watcher'
import { checkpointHooks } from '../sending'
import { lastBalanceRefusal } from '../sending'
import { estimateFees, journalFees, latestFees, type FeeSeen } from '../fees'
import type { ProfileMode } from '../../../../shared/domain/profiles'
import { toMinorUnits } from '../../../../shared/money'
import type { WatchDelays } from './payout-watcher'
import { formatMoney } from '../../../../shared/money'
import type { FailedPayoutsOf, LimitGate } from '../limits'

export interface PayoutDomainOptions {
  delays?: WatchDelays
  /**
   * The fees this profile was charged in its mode and the currency, for the review's estimate:
   * single payouts and bulk runs' paid rows (wired to the bulk runs); the journal's single payouts
   * alone when absent.
   */
  feeBasis?(scope: { profileId: string; mode: ProfileMode }, currency: string): Promise<FeeSeen[]>
  /**
   * The limits a payout passes before its intent is journaled (decision 127), with what the runs
   * say of their failed rows (not counted); absent: no limits.
   */
  limits?: { gate: LimitGate; failedPayouts(): Promise<FailedPayoutsOf> }
}

export function createPayoutDomain(
  context: ServiceContext,
  options: PayoutDomainOptions = {},
): DomainService<keyof typeof payoutChannels> {
  const { journal } = context
  const verifier = createPayoutVerifier(context.apiFor)
  context.reconciler.register('payout', verifier, 'send_again_offered')
  const sender = createPayoutSender({
    journal,
    apiFor: context.apiFor,
    now: context.now,
    hooks: checkpointHooks(context.checkpoint),
  })
  const lookups = lookupCacheOf(context)
  const changed = (movement: MovementView) => context.emit('payouts:changed', movement)
  const watcher = createPayoutWatcher({
    journal,
    verifier,
    onChange: changed,
    onFinal: (movement) => context.desktop.notifier.notify(noticeOf(movement)),
    ...(options.delays ? { delays: options.delays } : {}),
  })

  function payoutOf(reference: string): MovementView {
    const movement = journal.get(reference)
    if (!movement || movement.kind !== 'payout')
      throw new AppFailure('not_found', `This desk has no payout with reference ${reference}.`)
    return movement
  }

  /** The lists the rules check against; a list that cannot be read now is left to the service. */
  async function listsFor(body: PayoutBody, profileId: string): Promise<PayoutLists> {
    const { currency, type } = body.destination
    const lists: PayoutLists = {}
    try {
      const bankCountry = BANK_COUNTRY_OF[currency]
      const operatorCountry = OPERATOR_COUNTRY_OF[currency]
      if (type === 'bank_account' && bankCountry)
        lists.bankCodes = (await lookups.banks(bankCountry, { profileId })).map((bank) => bank.code)
      if (type === 'mobile_money' && operatorCountry)
        lists.operators = await lookups.operators(operatorCountry, { profileId })
      if (type === 'mobile_money' && currency === 'ZAR')
        lists.operators = await (await context.apiFor(profileId)).api.lookups.availability('mobile_money', 'ZAR')
    } catch (error) {
      context.log.warn(
        'Payout checks: a lookup list could not be read; the service checks it',
        (error as Error).message,
      )
    }
    return lists
  }

  /**
   * Sends the payout once the limits admit it (decision 127): refused before its intent is
   * journaled, with the limit's words; admitted, it is reserved until the journal holds it. The
   * same payout asked for again (a double click) is that payout, and is not counted twice.
   */
  async function sendWithinLimits(
    body: PayoutBody,
    scope: { profileId: string; mode: ProfileMode },
  ): Promise<MovementView> {
    const limits = options.limits
    if (!limits || journal.has(body.reference)) return sender.send(body, scope.profileId)
    const failedPayouts = await limits.failedPayouts()
    const currency = body.destination.currency
    const answer = limits.gate.admit(
      scope,
      { what: 'payout', currency, amounts: [toMinorUnits(body.destination.amount)] },
      [body.reference],
      failedPayouts,
    )
    if ('refused' in answer)
      throw new AppFailure('bad_request', `The payout was not sent: ${answer.refused.message}`, {
        limit: answer.refused.limit,
      })
    try {
      return await sender.send(body, scope.profileId)
    } finally {
      answer.release()
    }
  }

  function newReference(): string {
    const day = context.now().toISOString().slice(0, 10).replaceAll('-', '')
    return newPayoutReference(day, (reference) => journal.has(reference))
  }

  return {
    handlers: {
      'payouts:newReference': () => newReference(),
      'payouts:checkReference': ({ reference }) => ({
        problem:
          referenceProblem(reference) ??
          (journal.has(reference) ? 'This reference was already used by this desk: every payout needs its own.' : null),
      }),
      'payouts:beforeSend': async ({ currency, amount }) => {
        const { profileId, mode } = await context.apiFor()
        const scope = { profileId, mode }
        const basis = options.feeBasis
          ? await options.feeBasis(scope, currency)
          : latestFees(journalFees(journal.list({ kind: 'payout' }), scope, currency))
        let minor: bigint | null = null
        try {
          minor = toMinorUnits(amount)
        } catch {
          // An amount still being typed has no fee yet.
        }
        const limits = options.limits
        const limitRefusal =
          limits && minor !== null && minor > 0n
            ? limits.gate.refusal(scope, { what: 'payout', currency, amounts: [minor] }, await limits.failedPayouts())
            : null
        return {
          fees: { basis: basis.length, estimate: minor === null || minor <= 0n ? null : estimateFees(basis, minor) },
          balanceRefusal: lastBalanceRefusal(journal.list(), scope, currency),
          limitRefusal: limitRefusal ? `Send would be refused: ${limitRefusal.message}` : null,
        }
      },
      'payouts:send': async ({ body: input, confirmAmount }) => {
        const body = input as PayoutBody
        const { profileId, mode } = await context.apiFor()
        const problems = payoutBodyProblems(body, await listsFor(body, profileId))
        const issues = Object.entries(problems).map(([path, message]) => ({ path, message }))
        if (issues.length)
          throw new AppFailure('bad_request', 'The payout was not sent: some fields need attention.', { issues })
        if (
          mode === 'live' &&
          !confirmationMatches(confirmAmount ?? '', body.destination.amount, body.destination.currency)
        )
          throw new AppFailure('bad_request', 'This is a Live payout: type its amount exactly to confirm it.')
        const movement = await sendWithinLimits(body, { profileId, mode })
        changed(movement)
        watcher.watch(movement.reference)
        return movement
      },
      'payouts:list': () => journal.list({ kind: 'payout' }),
      'payouts:get': ({ reference }) => payoutOf(reference),
      'payouts:verify': async ({ reference }) => {
        payoutOf(reference)
        return watcher.verifyNow(reference)
      },
      'payouts:resend': async ({ reference }) => {
        payoutOf(reference)
        try {
          const movement = await sender.resend(reference)
          watcher.watch(reference)
          return movement
        } finally {
          const latest = journal.get(reference)
          if (latest) changed(latest)
        }
      },
    },
    start() {
      for (const movement of journal.list({ kind: 'payout', states: OPEN_STATES })) watcher.watch(movement.reference)
    },
    close: () => watcher.close(),
  }
}

/** The desktop notification of a finished payout, in plain words. */
export function noticeOf(movement: MovementView): { kind: 'success' | 'failure'; title: string; body: string } {
  const destination = (movement.request as { destination?: { amount?: string; currency?: string } }).destination
  const what =
    destination?.amount !== undefined && destination.currency
      ? formatMoney(destination.amount, destination.currency)
      : `${destination?.amount ?? ''} ${destination?.currency ?? ''}`.trim()
  const last = [...movement.timeline].reverse().find((event) => event.data)?.data ?? {}
  if (movement.state === 'success') {
    const trace = typeof last['trace_id'] === 'string' ? ` Trace id ${last['trace_id']}.` : ''
    return { kind: 'success', title: 'Payout paid', body: `${what} paid, reference ${movement.reference}.${trace}` }
  }
  const reason = typeof last['message'] === 'string' && last['message'] ? last['message'] : 'no reason given'
  return {
    kind: 'failure',
    title: 'Payout failed',
    body: `${what} was not paid, reference ${movement.reference}: ${reason}.`,
  }
}
