/** The charges channels, served from the services of this folder. */
import type { chargeChannels } from '../../../../shared/ipc/channels/charges'
import type { DomainService } from '../domain-service'
import type { ServiceContext } from '../service-context'
import { cardDigits } from '../../../../shared/rules/cards-charge'
import { createChargeFlow } from './charge-flow'
import { createChargeVerifier } from './charge-verification'

export function createChargeDomain(context: ServiceContext): DomainService<keyof typeof chargeChannels> {
  context.reconciler.register('charge', createChargeVerifier(context))
  const flow = createChargeFlow(context)
  async function whileHeld<T>(values: Array<string | undefined>, work: () => Promise<T>): Promise<T> {
    const release = context.log.holdSecrets(values.map((value) => value?.trim()))
    try {
      return await work()
    } finally {
      release()
    }
  }
  return {
    handlers: {
      // The card data typed into the form is masked everywhere (log, error texts, journal) for as long
      // as main holds it: while the request is prepared, encrypted and sent. After that only its
      // first six and last four digits are kept, and main forgets the rest.
      'charges:start': (input) =>
        whileHeld([input.card.number, cardDigits(input.card.number), input.card.cvv, input.card.pin], () =>
          flow.start(input),
        ),
      'charges:authorize': (input) => whileHeld([input.pin, input.otp], () => flow.authorize(input)),
      'charges:verify': ({ reference }) => flow.verify(reference),
      'charges:sessions': () => flow.sessions(),
      'charges:dismiss': ({ reference }) => ({ dismissed: flow.dismiss(reference) }),
      'charges:list': () => flow.list(),
      'charges:authPopupReport': ({ reference, location }) => flow.popupReport(reference, location),
    },
  }
}
