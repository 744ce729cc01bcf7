/**
 * The percentage an amount of a repeated run may move by before its variance review lists it
 * (decision 130), per profile; 20 when the profile set none. Its own small JSON file in userData
 * (written atomically), read once when the runs load, so a run's view reads it without waiting.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { DEFAULT_VARIANCE_PERCENT, percentHundredths } from '../../../../shared/bulk/run-variance'
import { AppFailure } from '../../../../shared/result'
import { writeJsonAtomically } from '../settings'

const FILE_NAME = 'repeat-variance.json'

/** The percentage as stored and shown: digits, at most two decimals, trailing zeros dropped ("12.5"). */
export function normalisedPercent(text: string): string | null {
  const hundredths = percentHundredths(text)
  if (hundredths === null || hundredths <= 0n || hundredths > 100_000n) return null
  const whole = hundredths / 100n
  const fraction = (hundredths % 100n).toString().padStart(2, '0').replace(/0+$/, '')
  return fraction ? `${whole}.${fraction}` : `${whole}`
}

export class RepeatVarianceSetting {
  private readonly path: string
  private percents = new Map<string, string>()
  private loaded: Promise<void> | null = null
  private queue: Promise<unknown> = Promise.resolve()

  constructor(userDataDir: string) {
    this.path = join(userDataDir, FILE_NAME)
  }

  /** Reads the file once; an unreadable file is no setting (every profile has the default). */
  load(): Promise<void> {
    return (this.loaded ??= (async () => {
      try {
        const parsed = JSON.parse(await readFile(this.path, 'utf8')) as { profiles?: unknown }
        if (!Array.isArray(parsed.profiles)) return
        for (const entry of parsed.profiles as unknown[]) {
          if (!Array.isArray(entry) || typeof entry[0] !== 'string' || typeof entry[1] !== 'string') continue
          const percent = normalisedPercent(entry[1])
          if (percent) this.percents.set(entry[0], percent)
        }
      } catch {
        // No file yet, or not readable: the defaults.
      }
    })())
  }

  /** The profile's percentage (after load; the default before or when none was set). */
  percentOf(profileId: string): string {
    return this.percents.get(profileId) ?? DEFAULT_VARIANCE_PERCENT
  }

  /** Sets the profile's percentage; refused with what is wrong when it is not one. */
  async set(profileId: string, text: string): Promise<string> {
    const percent = normalisedPercent(text)
    if (!percent)
      throw new AppFailure(
        'bad_request',
        `"${text.slice(0, 20)}" is not a percentage: give a number above 0 and up to 1000, with at most two decimals (for example 20 or 12.5).`,
      )
    await this.load()
    const write = this.queue.then(async () => {
      const next = new Map(this.percents).set(profileId, percent)
      await writeJsonAtomically(this.path, { profiles: [...next] })
      this.percents = next
    })
    this.queue = write.catch(() => undefined)
    await write
    return percent
  }
}
