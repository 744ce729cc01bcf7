/**
 * What the desk keeps about its user's money is readable by that user only: the settings, the
 * remembered column mappings and the team's release list are written 0600, like the journal and the
 * log (decision 91). A file written 0644 could be read by any other account on the machine.
 */
import { mkdtemp, readdir, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { MappingMemory } from '../../../../../../electron/main/services/bulk/import/mapping-memory'
import { writeJsonAtomically } from '../../../../../../electron/main/services/settings/atomic-json-file'
import { writeReleaseList } from '../../../../../../electron/main/services/team/team-release-list'

async function modesUnder(directory: string): Promise<Record<string, number>> {
  const modes: Record<string, number> = {}
  for (const entry of await readdir(directory, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue
    const path = join(entry.parentPath, entry.name)
    modes[path.slice(directory.length + 1)] = (await stat(path)).mode & 0o777
  }
  return modes
}

describe('files the desk keeps are its user’s only', () => {
  it('settings, mappings and the team release list are 0600', async () => {
    const userData = await mkdtemp(join(tmpdir(), 'payout-desk-private-'))
    await writeJsonAtomically(join(userData, 'settings.json'), { theme: 'light' })
    await new MappingMemory(userData).remember(
      ['Name', 'Account', 'Amount'],
      ['customer_name', 'account_number', 'amount'],
    )
    await writeReleaseList(userData, [])
    const modes = await modesUnder(userData)
    expect(Object.keys(modes).length).toBeGreaterThanOrEqual(3)
    for (const [name, mode] of Object.entries(modes)) expect(mode.toString(8), name).toBe('600')
  })
})
