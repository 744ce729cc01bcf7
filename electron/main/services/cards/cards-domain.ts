/** The cards channels, served from the services of this folder. */
import type { cardChannels } from '../../../../shared/ipc/channels/cards'
import type { CardListQuery } from '../../../../shared/domain/cards'
import type { DomainService } from '../domain-service'
import type { ServiceContext } from '../service-context'
import { exportTableWithDialog } from '../export'
import { allCards, cardExportTable } from './card-export'
import { createCardholderStore } from './cardholder-store'
import { createCardholder } from './cardholders'
import { createCardIssuing } from './card-issuing'
import type { CardIssuingOptions } from './card-issuing'
import { createCardSecrets } from './card-secrets'
import type { CardSecretsOptions } from './card-secrets'
import { cardDetailsView, cardListView } from './card-views'
import { createIdentityDocuments } from './identity-documents'

export type CardDomainOptions = CardIssuingOptions & CardSecretsOptions

/** The list query as the service takes it (spec 4.4; page and limit as the service pages). */
export function cardListFilters(query: CardListQuery) {
  return {
    status: query.status,
    type: query.type,
    start_date: query.startDate,
    end_date: query.endDate,
    page: query.page,
    limit: query.limit,
  }
}

export function createCardDomain(
  context: ServiceContext,
  options: CardDomainOptions = {},
): DomainService<keyof typeof cardChannels> {
  const holders = createCardholderStore(context.userDataDir)
  const documents = createIdentityDocuments()
  const issuing = createCardIssuing(context, holders, options)
  const secrets = createCardSecrets(context, options)
  context.reconciler.register('card_issue', issuing.verifier, 'send_again_offered')

  return {
    handlers: {
      'cards:holders': () => holders.list(),
      'cards:chooseIdentityFile': () => documents.choose(context.desktop.dialogs),
      'cards:dropIdentityFile': (file) => documents.fromDropped(context.desktop.files, file),
      'cards:discardIdentityFile': ({ token }) => {
        documents.release(token)
        return null
      },
      'cards:createCardholder': (input) => createCardholder(context, holders, documents, input),
      'cards:issue': ({ holderReference, brand }) => issuing.issue(holderReference, brand),
      'cards:sendAgain': ({ reference }) => issuing.sendAgain(reference),
      'cards:verifyIssue': ({ reference }) => issuing.verify(reference),
      'cards:issues': () => issuing.list(),
      'cards:list': async (query) =>
        cardListView(await (await context.apiFor()).api.cards.list(cardListFilters(query))),
      // The answer carries the PAN; the view leaves it out, and nothing here keeps it (masked by pattern).
      'cards:details': async ({ reference }) =>
        cardDetailsView(await (await context.apiFor()).api.cards.get(reference)),
      'cards:export': async ({ format, filters }) => {
        const { api } = await context.apiFor()
        return exportTableWithDialog(context, cardExportTable(await allCards(api.cards, filters)), format)
      },
      'cards:reveal': ({ reference }) => secrets.reveal(reference),
      'cards:hide': ({ reference }) => {
        secrets.hide(reference)
        return null
      },
      'cards:copyNumber': ({ reference }) => secrets.copyNumber(reference),
    },
    start: () => issuing.resume(),
    async close() {
      issuing.close()
      await secrets.close()
    },
  }
}
