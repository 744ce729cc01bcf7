/**
 * Who pays the fees, remembered per profile (decision 39): the choice made on a run's review is
 * the default of the profile's next run. One small JSON file in userData, written atomically.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { writeJsonAtomically } from '../settings'

const FILE_NAME = 'fee-payer.json'

export interface FeePayerChoice {
  /** Whether this profile pays the fees (merchant_bears_cost); undefined when never chosen. */
  recall(profileId: string): Promise<boolean | undefined>
  remember(profileId: string, merchantBearsCost: boolean): Promise<void>
}

export class FeePayerMemory implements FeePayerChoice {
  private readonly path: string
  private queue: Promise<unknown> = Promise.resolve()

  constructor(userDataDir: string) {
    this.path = join(userDataDir, FILE_NAME)
  }

  /** [profileId, merchantBearsCost] pairs; an unreadable file is none (kept as pairs: ids are not object keys). */
  private async load(): Promise<Array<[string, boolean]>> {
    try {
      const parsed = JSON.parse(await readFile(this.path, 'utf8')) as { profiles?: unknown }
      if (!Array.isArray(parsed.profiles)) return []
      return parsed.profiles.filter(
        (p: unknown): p is [string, boolean] =>
          Array.isArray(p) && typeof p[0] === 'string' && typeof p[1] === 'boolean',
      )
    } catch {
      return []
    }
  }

  async recall(profileId: string): Promise<boolean | undefined> {
    await this.queue
    return (await this.load()).find(([id]) => id === profileId)?.[1]
  }

  remember(profileId: string, merchantBearsCost: boolean): Promise<void> {
    const write = this.queue.then(async () => {
      const profiles = (await this.load()).filter(([id]) => id !== profileId)
      profiles.push([profileId, merchantBearsCost])
      await writeJsonAtomically(this.path, { profiles })
    })
    this.queue = write.catch(() => undefined)
    return write
  }
}
