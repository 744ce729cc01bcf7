/**
 * The card number and CVV, handled in main only: revealed on an explicit request for the open
 * details drawer, or copied to the clipboard by main itself (the number never crosses for a copy),
 * which is cleared again after 30 s if it still holds the number.
 *
 * What main keeps, and for how long: a revealed PAN and CVV are registered with the log's masking
 * while the drawer may show them (until `hide`, or `hideAfterMs` at the latest, when the drawer
 * hides them by itself), then released; a copied number while it may be on the clipboard. Nothing
 * else holds them: the clipboard timer remembers the number's SHA-256, not the number.
 */
import { createHash } from 'node:crypto'
import type { CopiedCardNumber, RevealedCardSecrets } from '../../../../shared/domain/cards'
import { CARD_SECRET_VISIBLE_MS } from '../../../../shared/domain/cards'
import type { ConcealedWrite } from '../../adapters/desktop'
import type { CardDetailsAnswer } from '../api'
import type { ServiceContext } from '../service-context'

export interface CardSecretsOptions {
  /** How long a copied number stays on the clipboard (30 s; tests of this module shorten it). */
  clipboardClearMs?: number
  /** How long a revealed number may be shown (30 s; tests shorten it). */
  visibleMs?: number
}

export interface CardSecrets {
  reveal(reference: string): Promise<RevealedCardSecrets>
  /** The drawer hid the number again (or closed): main forgets it now. */
  hide(reference: string): void
  copyNumber(reference: string): Promise<CopiedCardNumber>
  /** How many revealed or copied cards main still holds for masking (tests). */
  readonly held: number
  /** Clears a number still on the clipboard and stops the timers (the app is quitting). */
  close(): Promise<void>
}

const digest = (text: string): string => createHash('sha256').update(text).digest('hex')

export function createCardSecrets(context: ServiceContext, options: CardSecretsOptions = {}): CardSecrets {
  const clearAfterMs = options.clipboardClearMs ?? CARD_SECRET_VISIBLE_MS
  const visibleMs = options.visibleMs ?? CARD_SECRET_VISIBLE_MS
  /** Per card reference, the release of what its reveal registered. */
  const revealed = new Map<string, () => void>()
  /** Per SHA-256 of a number main put on the clipboard: the timer that takes it off, and its release. */
  const onClipboard = new Map<string, { timer: ReturnType<typeof setTimeout>; release: () => void }>()

  const fetchCard = async (reference: string): Promise<CardDetailsAnswer> =>
    (await context.apiFor()).api.cards.get(reference)

  function hide(reference: string): void {
    revealed.get(reference)?.()
    revealed.delete(reference)
  }

  async function clearIfStillThere(hash: string): Promise<void> {
    const entry = onClipboard.get(hash)
    onClipboard.delete(hash)
    try {
      // Something the user copied since then is theirs: leave it.
      if (digest(await context.desktop.clipboard.readText()) === hash) context.desktop.clipboard.clear()
    } finally {
      entry?.release()
    }
  }

  return {
    async reveal(reference) {
      const card = await fetchCard(reference)
      hide(reference)
      const release = context.log.holdSecrets([card.pan, card.cvv], { forMs: visibleMs })
      revealed.set(reference, release)
      // Forget the entry with the hold, so a drawer that never says "hide" leaves nothing behind.
      const timer = setTimeout(() => {
        if (revealed.get(reference) === release) revealed.delete(reference)
      }, visibleMs)
      timer.unref?.()
      return { reference, pan: card.pan, cvv: card.cvv, hideAfterMs: visibleMs }
    },
    hide,
    async copyNumber(reference) {
      const { pan } = await fetchCard(reference)
      const hash = digest(pan)
      // Held for masking from before the write until the clear; the platform's helper may take a
      // few seconds (decision 114), hence the margin past the clear.
      const release = context.log.holdSecrets([pan], { forMs: clearAfterMs + 15_000 })
      let written: ConcealedWrite
      try {
        // With the platform's "do not keep in history" markers where it has them (decision 114).
        written = await context.desktop.clipboard.writeSecretText(pan)
      } catch (error) {
        release()
        throw error
      }
      // Looked up after the write: of two copies of one number, the later one's clear counts.
      const earlier = onClipboard.get(hash)
      if (earlier) {
        clearTimeout(earlier.timer)
        earlier.release()
      }
      const timer = setTimeout(() => {
        void clearIfStillThere(hash).catch((error: unknown) =>
          context.log.error('Could not clear the clipboard', error),
        )
      }, clearAfterMs)
      timer.unref?.()
      onClipboard.set(hash, { timer, release })
      return { clearAfterMs, keptOutOfHistory: written.marked }
    },
    get held() {
      return revealed.size + onClipboard.size
    },
    async close() {
      for (const reference of [...revealed.keys()]) hide(reference)
      for (const [hash, { timer }] of [...onClipboard]) {
        clearTimeout(timer)
        await clearIfStillThere(hash)
      }
    },
  }
}
