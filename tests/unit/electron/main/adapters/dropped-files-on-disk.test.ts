/**
 * Dropped files in the installed app are read where they are, by the path the preload supplied:
 * main takes only what a drop on that screen can be, and says what is wrong with anything else.
 */
import { mkdir, mkdtemp, rm, truncate, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { droppedFilesOnDisk } from '../../../../../electron/main/adapters/dropped-files-on-disk'
import { MAX_OPENED_FILE_BYTES } from '../../../../../shared/ipc/files'

const SHEETS = [{ name: 'Spreadsheets', extensions: ['xlsx', 'xls', 'csv'] }]
let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dropped-'))
  await writeFile(join(dir, 'March.CSV'), 'a,b\n')
  await mkdir(join(dir, 'folder.csv'))
  await writeFile(join(dir, 'huge.csv'), '')
  await truncate(join(dir, 'huge.csv'), MAX_OPENED_FILE_BYTES + 1)
})
afterAll(() => rm(dir, { recursive: true, force: true }))

const pathOf = (ref: string, name = 'f') => droppedFilesOnDisk().pathOf({ name, ref }, SHEETS)

describe('a dropped file read by its path', () => {
  it('is read where it is when it is a regular file of a kind the screen takes', async () => {
    expect(await pathOf(join(dir, 'March.CSV'))).toBe(join(dir, 'March.CSV'))
  })

  it.each([
    ['a relative path', 'March.CSV', 'f is not a file on this computer; drop it from a folder.'],
    ['another kind of file', '/etc/passwd', 'passwd: this screen opens .xlsx, .xls, .csv files.'],
    ['a key with a sheet-like name', '/root/.ssh/id_rsa', 'id_rsa: this screen opens .xlsx, .xls, .csv files.'],
    ['a folder', 'folder.csv', 'folder.csv is not a file.'],
    ['a missing file', 'gone.csv', 'gone.csv could not be read: ENOENT.'],
    ['a file above the limit', 'huge.csv', 'huge.csv is larger than 72 MiB, more than any file this desk opens.'],
  ])('refuses %s, naming it', async (_label, ref, message) => {
    const path = ref.startsWith('/') || !['folder.csv', 'gone.csv', 'huge.csv'].includes(ref) ? ref : join(dir, ref)
    await expect(pathOf(path)).rejects.toMatchObject({ code: 'bad_request', message })
  })
})
