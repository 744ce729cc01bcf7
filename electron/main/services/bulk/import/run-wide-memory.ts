/**
 * The run-wide e-mail each profile gave last (decision 53): a payroll without an e-mail column is
 * sent with one address (the accounts team's, say), and next month's import proposes it again.
 * One small JSON file in userData, written atomically, like the remembered bank names. Only the
 * e-mail is kept: a narration ("March salaries") is new every run.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { emailProblem } from '../../../../../shared/rules/common'
import { writeJsonAtomically } from '../../settings'

const FILE_NAME = 'bulk-run-wide.json'
/** Profiles kept; the ones least recently used go first. */
const MAX_PROFILES = 200

/** [profileId, e-mail] */
type Entry = [string, string]

const isEntry = (value: unknown): value is Entry =>
  Array.isArray(value) && typeof value[0] === 'string' && typeof value[1] === 'string'

export class RunWideMemory {
  private readonly path: string
  /** Writes one after the other, so two imports never lose each other's address. */
  private queue: Promise<unknown> = Promise.resolve()

  constructor(userDataDir: string) {
    this.path = join(userDataDir, FILE_NAME)
  }

  private async load(): Promise<Entry[]> {
    try {
      const entries = (JSON.parse(await readFile(this.path, 'utf8')) as { entries?: unknown })?.entries
      return Array.isArray(entries) ? entries.filter(isEntry) : []
    } catch {
      return []
    }
  }

  /** The e-mail this profile gave last, if any (an unreadable file or an odd value is none). */
  async recallEmail(profileId: string): Promise<string | undefined> {
    const email = (await this.load()).find(([profile]) => profile === profileId)?.[1]
    return email !== undefined && emailProblem(email) === null ? email : undefined
  }

  async rememberEmail(profileId: string, email: string): Promise<void> {
    const write = this.queue.then(async () => {
      const entries = (await this.load()).filter(([profile]) => profile !== profileId)
      entries.push([profileId, email])
      await writeJsonAtomically(this.path, { version: 1, entries: entries.slice(-MAX_PROFILES) })
    })
    this.queue = write.catch(() => undefined)
    return write
  }
}
