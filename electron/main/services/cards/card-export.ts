/**
 * The card list as an export table: every card matching the list's filters (all pages), with the
 * number only as first six and last four. No PAN, no CVV, no expiry (the export guard refuses
 * expiry columns: with a leaked number it would complete the card).
 */
import type { CardListQuery, CardSummary } from '../../../../shared/domain/cards'
import type { ExportTable } from '../../../../shared/domain/export'
import type { CardEndpoints } from '../api'
import { cardSummaryView } from './card-views'

/** The service pages at most 100 a page; 100 pages (10,000 cards) is far above a desk's needs. */
const PAGE_SIZE = 100
const MAX_PAGES = 100

export async function allCards(
  cards: CardEndpoints,
  filters: Omit<CardListQuery, 'page' | 'limit'>,
): Promise<CardSummary[]> {
  const all: CardSummary[] = []
  for (let page = 1; page <= MAX_PAGES; page++) {
    const answer = await cards.list({
      status: filters.status,
      type: filters.type,
      start_date: filters.startDate,
      end_date: filters.endDate,
      page,
      limit: PAGE_SIZE,
    })
    all.push(...answer.data.map(cardSummaryView))
    if (page >= answer.paging.count || answer.data.length === 0) break
  }
  return all
}

export function cardExportTable(cards: readonly CardSummary[]): ExportTable {
  return {
    title: 'Cards',
    columns: [
      { key: 'reference', header: 'Reference', kind: 'text' },
      { key: 'holder_name', header: 'Cardholder', kind: 'text' },
      { key: 'brand', header: 'Brand', kind: 'text' },
      { key: 'type', header: 'Type', kind: 'text' },
      { key: 'currency', header: 'Currency', kind: 'text' },
      { key: 'first_six', header: 'First six', kind: 'text' },
      { key: 'last_four', header: 'Last four', kind: 'text' },
      { key: 'status', header: 'Status', kind: 'text' },
      { key: 'date_created', header: 'Created (UTC)', kind: 'date' },
    ],
    rows: cards.map((card) => ({
      reference: card.reference,
      holder_name: card.holderName,
      brand: card.brand,
      type: card.type,
      currency: card.currency,
      first_six: card.firstSix,
      last_four: card.lastFour,
      status: card.status,
      date_created: card.dateCreated,
    })),
  }
}
