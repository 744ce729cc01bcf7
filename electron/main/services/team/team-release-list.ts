/**
 * The team runs this desk is releasing, kept in userData so a restart carries them on (recording
 * their results, claiming their next batches): `team-releases.json`, a list of { runId, version },
 * written to a temporary file and renamed over the old one.
 */
import { readFile, rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'

const RELEASES_FILE = 'team-releases.json'

export interface ReleaseListEntry {
  runId: string
  version: number
}

/** The list as last written; empty when there is none (or it cannot be read: nothing to carry on). */
export async function readReleaseList(userDataDir: string): Promise<ReleaseListEntry[]> {
  try {
    const list = JSON.parse(await readFile(join(userDataDir, RELEASES_FILE), 'utf8')) as unknown
    return Array.isArray(list)
      ? list.filter(
          (entry): entry is ReleaseListEntry =>
            typeof (entry as ReleaseListEntry)?.runId === 'string' &&
            Number.isInteger((entry as ReleaseListEntry).version),
        )
      : []
  } catch {
    return []
  }
}

export async function writeReleaseList(userDataDir: string, list: ReleaseListEntry[]): Promise<void> {
  const file = join(userDataDir, RELEASES_FILE)
  await writeFile(`${file}.tmp`, JSON.stringify(list), { mode: 0o600 })
  await rename(`${file}.tmp`, file)
}
