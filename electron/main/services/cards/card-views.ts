/** Answers of the service as the screens see them: camelCase, and never the PAN or the CVV. */
import type { CardDetails, CardListPage, CardSummary } from '../../../../shared/domain/cards'
import type { CardDetailsAnswer, CardListAnswer, CardSummaryAnswer } from '../api'

export function cardSummaryView(card: CardSummaryAnswer & { holder_name?: string }): CardSummary {
  return {
    reference: card.reference,
    type: card.type,
    currency: card.currency,
    firstSix: card.first_six,
    lastFour: card.last_four,
    status: card.status,
    holderName: card.holder_name ?? '',
    brand: card.brand,
    expiryMonth: card.expiry_month.padStart(2, '0'),
    expiryYear: card.expiry_year.padStart(2, '0'),
    dateCreated: card.date_created,
  }
}

export function cardListView(answer: CardListAnswer): CardListPage {
  return {
    cards: answer.data.map(cardSummaryView),
    paging: {
      totalItems: answer.paging.total_items,
      pageSize: answer.paging.page_size,
      current: answer.paging.current,
      count: answer.paging.count,
    },
  }
}

/** Balance as an exact decimal string: the service sends a JSON number with two decimals at most. */
function balanceText(balance: number): string {
  return balance.toFixed(2)
}

export function cardDetailsView(card: CardDetailsAnswer): CardDetails {
  // pan and cvv are deliberately not read here.
  const holder = card.card_holder
  return {
    ...cardSummaryView({ ...card, holder_name: `${holder.first_name} ${holder.last_name}`.trim() }),
    balance: balanceText(card.balance),
    billing: {
      city: card.billing.city,
      state: card.billing.state,
      country: card.billing.country,
      address1: card.billing.address1,
      address2: card.billing.address2,
      zipCode: card.billing.zip_code,
    },
    holder: {
      firstName: holder.first_name,
      lastName: holder.last_name,
      email: holder.email,
      phoneNumber: holder.phone_number ?? null,
      address: {
        city: holder.address.city,
        state: holder.address.state,
        street: holder.address.street,
        country: holder.address.country,
        zipCode: holder.address.zip_code,
      },
    },
  }
}
