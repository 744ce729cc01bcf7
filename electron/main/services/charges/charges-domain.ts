/** The charges channels, served from the services of this folder. */
import type { chargeChannels } from '../../../../shared/ipc/channels/charges'
import type { DomainService } from '../domain-service'
import type { ServiceContext } from '../service-context'
import { createChargeFlow } from './charge-flow'
import { createChargeVerifier } from './charge-verification'

export function createChargeDomain(context: ServiceContext): DomainService<keyof typeof chargeChannels> {
  context.reconciler.register('charge', createChargeVerifier(context))
  const flow = createChargeFlow(context)
  return {
    handlers: {
      'charges:start': (input) => flow.start(input),
      'charges:authorize': (input) => flow.authorize(input),
      'charges:verify': ({ reference }) => flow.verify(reference),
      'charges:sessions': () => flow.sessions(),
      'charges:dismiss': ({ reference }) => ({ dismissed: flow.dismiss(reference) }),
      'charges:list': () => flow.list(),
      'charges:authPopupReport': ({ reference, location }) => flow.popupReport(reference, location),
    },
  }
}
