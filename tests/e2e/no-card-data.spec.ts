/**
 * The scanner that proves no card number or CVV reaches a file (used after every cards test) can
 * fail: it finds a PAN and a CVV written as UTF-8, as UTF-16LE, and inside an XLSX (ZIP) part.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { strToU8, zipSync } from 'fflate'
import { expect, test } from '@playwright/test'
import { scanForCardData } from './card-data-scan'

const secret = { reference: 'card_x', pan: '5399831234567890', cvv: '482' }

test('finds a PAN and a CVV in UTF-8, UTF-16LE and XLSX files, and nothing in clean ones', async () => {
  // Outside the run's scan root: what is planted here must not fail the run's own final scan.
  const dir = await mkdtemp(join(process.env['PAYOUT_DESK_REAL_TMPDIR'] ?? tmpdir(), 'payout-desk-scan-'))
  try {
    await writeFile(join(dir, 'clean.json'), JSON.stringify({ first_six: '539983', last_four: '7890', seq: 4821 }))
    const clean = await scanForCardData({ paths: [dir], secrets: [secret] })
    expect(clean.files).toHaveLength(1)
    expect(clean.findings).toEqual([])

    await writeFile(join(dir, 'utf8.log'), `number ${secret.pan}`)
    await writeFile(join(dir, 'utf16.txt'), Buffer.from(`card ${secret.pan}; code ${secret.cvv}.`, 'utf16le'))
    await writeFile(join(dir, 'odd.bin'), Buffer.concat([Buffer.from([7]), Buffer.from(secret.pan, 'utf16le')]))
    await writeFile(
      join(dir, 'cards.xlsx'),
      zipSync({ 'xl/sharedStrings.xml': strToU8(`<si><t>${secret.pan}</t></si>`) }),
    )
    await writeFile(join(dir, 'settings.json'), '{"cvv": "911"}')
    await writeFile(join(dir, 'kept.json'), '{"cvv": null, "pin": "[redacted]"}')
    const { findings } = await scanForCardData({ paths: [dir], secrets: [secret] })
    const where = (name: string) => findings.filter((finding) => finding.where.includes(name)).map((f) => f.what)
    expect(where('utf8.log')).toContain('PAN of card_x (UTF-8)')
    expect(where('utf16.txt')).toEqual(expect.arrayContaining(['PAN of card_x (UTF-16LE)', 'CVV of card_x (UTF-16LE)']))
    expect(where('odd.bin')).toContain('PAN of card_x (UTF-16LE)')
    expect(where('cards.xlsx!xl/sharedStrings.xml')).toContain('PAN of card_x (UTF-8)')
    expect(where('settings.json')).toContain('a "cvv" field with a value (UTF-8)')
    expect(where('clean.json')).toEqual([])
    expect(where('kept.json')).toEqual([])
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
})
