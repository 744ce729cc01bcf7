/**
 * The card number and CVV, handled in main only: revealed on an explicit request for the open
 * details drawer, or copied to the clipboard by main itself (the number never crosses for a copy),
 * which is cleared again after 30 s if it still holds the number. Every number seen is registered
 * with the log so a stray log line cannot carry it.
 */
import type { CopiedCardNumber, RevealedCardSecrets } from '../../../../shared/domain/cards'
import { CARD_SECRET_VISIBLE_MS } from '../../../../shared/domain/cards'
import type { CardDetailsAnswer } from '../api/cards'
import type { ServiceContext } from '../service-context'

export interface CardSecretsOptions {
  /** How long a copied number stays on the clipboard (30 s; tests of this module shorten it). */
  clipboardClearMs?: number
}

export interface CardSecrets {
  reveal(reference: string): Promise<RevealedCardSecrets>
  copyNumber(reference: string): Promise<CopiedCardNumber>
  /** Clears a number still on the clipboard and stops the timers (the app is quitting). */
  close(): Promise<void>
}

export function createCardSecrets(context: ServiceContext, options: CardSecretsOptions = {}): CardSecrets {
  const clearAfterMs = options.clipboardClearMs ?? CARD_SECRET_VISIBLE_MS
  /** Numbers main put on the clipboard, with the timer that takes each off again. */
  const onClipboard = new Map<string, ReturnType<typeof setTimeout>>()

  async function fetchCard(reference: string): Promise<CardDetailsAnswer> {
    const card = await (await context.apiFor()).api.cards.get(reference)
    context.log.addSecret(card.pan)
    context.log.addSecret(card.cvv)
    return card
  }

  async function clearIfStillThere(pan: string): Promise<void> {
    onClipboard.delete(pan)
    // Something the user copied since then is theirs: leave it.
    if ((await context.desktop.clipboard.readText()) === pan) context.desktop.clipboard.clear()
  }

  return {
    async reveal(reference) {
      const card = await fetchCard(reference)
      return { reference, pan: card.pan, cvv: card.cvv, hideAfterMs: CARD_SECRET_VISIBLE_MS }
    },
    async copyNumber(reference) {
      const { pan } = await fetchCard(reference)
      const earlier = onClipboard.get(pan)
      if (earlier) clearTimeout(earlier)
      context.desktop.clipboard.writeText(pan)
      const timer = setTimeout(() => {
        void clearIfStillThere(pan).catch((error: unknown) => context.log.error('Could not clear the clipboard', error))
      }, clearAfterMs)
      timer.unref?.()
      onClipboard.set(pan, timer)
      return { clearAfterMs }
    },
    async close() {
      for (const [pan, timer] of onClipboard) {
        clearTimeout(timer)
        await clearIfStillThere(pan)
      }
    },
  }
}
