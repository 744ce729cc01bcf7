/**
 * Bank names confirmed in the Banks step, remembered per profile and country (decision 33), the
 * way column mappings are remembered per layout: next time the same text ("GTBank", "First") is
 * proposed with the bank chosen before. One small JSON file in userData, written atomically.
 * Keys are texts from files: kept in Maps and arrays, never as object keys.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { BankChoiceByKey } from '../../../../../shared/domain/bulk'
import { writeJsonAtomically } from '../../settings'

const FILE_NAME = 'bulk-bank-names.json'
/** Texts kept per profile and country; the oldest go first. */
const MAX_NAMES = 2000

type Country = 'NG' | 'KE'
/** [profileId, country, [[key, code], ...]] */
type Entry = [string, Country, Array<[string, string]>]

function isEntry(value: unknown): value is Entry {
  return (
    Array.isArray(value) &&
    typeof value[0] === 'string' &&
    (value[1] === 'NG' || value[1] === 'KE') &&
    Array.isArray(value[2]) &&
    value[2].every((pair: unknown) => Array.isArray(pair) && typeof pair[0] === 'string' && typeof pair[1] === 'string')
  )
}

export class BankNameMemory {
  private readonly path: string
  /** Writes one after the other, so two confirmations never lose each other's names. */
  private queue: Promise<unknown> = Promise.resolve()

  constructor(userDataDir: string) {
    this.path = join(userDataDir, FILE_NAME)
  }

  private async load(): Promise<Entry[]> {
    let parsed: unknown
    try {
      parsed = JSON.parse(await readFile(this.path, 'utf8'))
    } catch {
      return []
    }
    const entries = (parsed as { entries?: unknown })?.entries
    return Array.isArray(entries) ? entries.filter(isEntry) : []
  }

  /** The texts this profile confirmed for the country's banks: [key, code]; an unreadable file is none. */
  async recall(profileId: string, country: Country): Promise<Array<[string, string]>> {
    const entry = (await this.load()).find(([profile, of]) => profile === profileId && of === country)
    return entry ? entry[2] : []
  }

  async remember(profileId: string, country: Country, choices: readonly BankChoiceByKey[]): Promise<void> {
    const write = this.queue.then(async () => {
      const entries = await this.load()
      const index = entries.findIndex(([profile, of]) => profile === profileId && of === country)
      const names = new Map(index >= 0 ? entries[index]![2] : [])
      for (const { key, code } of choices) {
        names.delete(key)
        names.set(key, code)
      }
      const entry: Entry = [profileId, country, [...names].slice(-MAX_NAMES)]
      if (index >= 0) entries[index] = entry
      else entries.push(entry)
      await writeJsonAtomically(this.path, { version: 1, entries })
    })
    this.queue = write.catch(() => undefined)
    return write
  }
}
