import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { SettingsFileError } from '../../../../../../electron/main/services/settings/atomic-json-file'
import {
  createSettingsStore,
  SETTINGS_FILE_NAME,
} from '../../../../../../electron/main/services/settings/settings-store'

async function tempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'settings-'))
}

describe('settings store', () => {
  it('starts on Sandbox with the system theme when no file exists', async () => {
    const store = createSettingsStore(await tempDir(), 'sandbox')
    expect(await store.read()).toEqual({
      version: 1,
      theme: 'system',
      activeProfileId: 'sandbox',
      profiles: [],
      teamConnections: {},
      ledgerAccounts: {},
      controls: {},
      paceCeilings: {},
    })
  })

  it('reads a file written before team mode as every profile solo', async () => {
    const dir = await tempDir()
    await writeFile(
      join(dir, SETTINGS_FILE_NAME),
      JSON.stringify({ version: 1, theme: 'dark', activeProfileId: 'sandbox', profiles: [] }),
    )
    expect(await createSettingsStore(dir, 'sandbox').read()).toMatchObject({ theme: 'dark', teamConnections: {} })
  })

  it('saves atomically and a new store reads the same settings back', async () => {
    const dir = await tempDir()
    await createSettingsStore(dir, 'sandbox').update((state) => ({
      ...state,
      theme: 'dark',
      profiles: [{ id: 'ops-1', name: 'Ops', mode: 'test', baseUrl: 'https://api.example.com' }],
    }))
    expect(await createSettingsStore(dir, 'sandbox').read()).toMatchObject({
      theme: 'dark',
      profiles: [{ id: 'ops-1' }],
    })
    // No temporary file is left behind.
    expect(await readdir(dir)).toEqual([SETTINGS_FILE_NAME])
  })

  it('loses no change when updates overlap', async () => {
    const dir = await tempDir()
    const store = createSettingsStore(dir, 'sandbox')
    await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        store.update((state) => ({
          ...state,
          profiles: [
            ...state.profiles,
            { id: `p-${index}`, name: `P${index}`, mode: 'test' as const, baseUrl: 'https://a.example' },
          ],
        })),
      ),
    )
    const saved = JSON.parse(await readFile(join(dir, SETTINGS_FILE_NAME), 'utf8')) as { profiles: unknown[] }
    expect(saved.profiles).toHaveLength(10)
  })

  it('names the file and the problem when the file is damaged, and does not overwrite it', async () => {
    const dir = await tempDir()
    const file = join(dir, SETTINGS_FILE_NAME)
    await writeFile(file, '{"version":1,"theme":"purple","activeProfileId":"sandbox","profiles":[]}')
    const store = createSettingsStore(dir, 'sandbox')
    await expect(store.read()).rejects.toThrow(SettingsFileError)
    await expect(store.read()).rejects.toThrow(`${file}: theme Invalid option: expected one of "system"|"light"|"dark"`)
    await writeFile(file, '{not json')
    await expect(createSettingsStore(dir, 'sandbox').read()).rejects.toThrow(/settings\.json: not valid JSON/)
    expect(await readFile(file, 'utf8')).toBe('{not json')
  })
})
