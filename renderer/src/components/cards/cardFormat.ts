/** How card data is written on screen: masked numbers, expiry, status colours. */
import type { CardSummary } from '../../../../shared/domain/cards'
import { dateTimeText } from '../../../../shared/words/dates'

/** First six and last four only, the rest masked (the list never has more). */
export function maskedNumber(card: Pick<CardSummary, 'firstSix' | 'lastFour'>): string {
  return `${card.firstSix} •••••• ${card.lastFour}`
}

export function expiry(card: Pick<CardSummary, 'expiryMonth' | 'expiryYear'>): string {
  return `${card.expiryMonth}/${card.expiryYear}`
}

export function statusTagType(status: string): 'success' | 'warning' | 'error' | 'default' {
  if (status === 'active') return 'success'
  if (status === 'pending') return 'warning'
  if (status === 'terminated' || status === 'expired' || status === 'deactivated') return 'error'
  return 'default'
}

export function titleCase(text: string): string {
  return text ? text[0]!.toUpperCase() + text.slice(1) : text
}

/** When, as every date on screen is told (decision 60). */
export function dateTime(iso: string): string {
  return dateTimeText(iso)
}

/** A full number in groups of four, as printed on cards. */
export function groupedNumber(pan: string): string {
  return pan.replace(/(.{4})(?=.)/g, '$1 ')
}
