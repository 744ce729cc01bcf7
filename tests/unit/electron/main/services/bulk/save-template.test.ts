/** "Download template" (decision 40): the template copied where the Save dialog says; Cancel writes nothing. */
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { saveTemplate } from '../../../../../../electron/main/services/bulk/import/save-template'
import { templatePath } from '../../../../../../electron/main/services/bulk/import/templates'
import { createBridgeDesktop } from '../../../../../../electron/main/adapters/bridge-desktop'

let dir: string
beforeEach(async () => (dir = await mkdtemp(join(tmpdir(), 'template-'))))
afterEach(() => rm(dir, { recursive: true, force: true }))

describe('Download template', () => {
  it('copies the XLSX and CSV templates where the user chose, named as templates', async () => {
    const desktop = createBridgeDesktop()
    for (const kind of ['xlsx', 'csv'] as const) {
      const target = join(dir, `mine.${kind}`)
      desktop.queueSavePath(target)
      expect(await saveTemplate({ desktop }, kind)).toEqual({ path: target })
      expect(await readFile(target)).toEqual(await readFile(templatePath(kind)))
    }
    expect(desktop.dialogRequests.map((r) => (r as { defaultName?: string }).defaultName)).toEqual([
      'payouts-template.xlsx',
      'payouts-template.csv',
    ])
  })

  it('writes nothing when the dialog is cancelled, and says so when the template is missing', async () => {
    const desktop = createBridgeDesktop()
    expect(await saveTemplate({ desktop }, 'csv')).toEqual({ path: null })
    expect(await readdir(dir)).toEqual([])
    await expect(
      saveTemplate({ desktop }, 'csv', () => {
        throw new Error('The CSV payout template is missing')
      }),
    ).rejects.toThrow(/template is missing/)
  })
})
