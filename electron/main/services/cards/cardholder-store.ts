/**
 * The cardholders this desk created (name, e-mail, the service's reference, date), kept in
 * userData/cardholders.json so cards can be issued to them later. No identity data is kept.
 * Written atomically; updates are serialised.
 */
import { join } from 'node:path'
import { z } from 'zod'
import type { StoredCardholder } from '../../../../shared/domain/cards'
import { readJsonFile, writeJsonAtomically } from '../settings'

export const CARDHOLDERS_FILE_NAME = 'cardholders.json'

const fileSchema = z.object({
  version: z.literal(1),
  cardholders: z.array(
    z.object({
      reference: z.string().min(1),
      firstName: z.string(),
      lastName: z.string(),
      email: z.string(),
      createdAt: z.string(),
    }),
  ),
})
type CardholderFile = z.infer<typeof fileSchema>

export interface CardholderStore {
  readonly file: string
  /** Newest first. */
  list(): Promise<StoredCardholder[]>
  find(reference: string): Promise<StoredCardholder | undefined>
  add(holder: StoredCardholder): Promise<void>
}

export function createCardholderStore(userDataDir: string): CardholderStore {
  const file = join(userDataDir, CARDHOLDERS_FILE_NAME)
  let queue: Promise<unknown> = Promise.resolve()
  const read = (): Promise<CardholderFile> => readJsonFile(file, fileSchema, { version: 1, cardholders: [] })

  return {
    file,
    async list() {
      return [...(await read()).cardholders].reverse()
    },
    async find(reference) {
      return (await read()).cardholders.find((holder) => holder.reference === reference)
    },
    add(holder) {
      const next = queue.then(async () => {
        const current = await read()
        const others = current.cardholders.filter((known) => known.reference !== holder.reference)
        await writeJsonAtomically(file, { version: 1, cardholders: [...others, holder] })
      })
      queue = next.catch(() => undefined)
      return next
    },
  }
}
