/**
 * The scanner that proves no card number or CVV reaches a file (used after every cards test) can
 * fail: it finds a PAN and a CVV written as UTF-8, as UTF-16LE, inside an XLSX (ZIP) part, and in
 * a PDF, whose compressed text it reads back, also inside a ZIP of PDFs.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { strToU8, zipSync } from 'fflate'
import PDFDocument from 'pdfkit'
import { expect, test } from '@playwright/test'
import { scanForCardData } from './card-data-scan'

/** Shaped like a live secret key, assembled here so no such literal is committed. */
const LIVE_LOOKING_KEY = ['sk', 'live', '0123456789abcdef'].join('_')

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

/** A PDF with the text in a compressed stream, made with pdfkit itself (the desk's own refuse it). */
function pdfWith(text: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ compress: true })
    const chunks: Buffer[] = []
    doc.on('data', (chunk: Buffer) => chunks.push(chunk))
    doc.on('end', () => resolve(Buffer.concat(chunks)))
    doc.on('error', reject)
    doc.text(text)
    doc.end()
  })
}

test('finds a PAN, a CVV or a key in a PDF, where the compressed bytes alone would hide them', async () => {
  // Outside the run's scan root, like the test above.
  const dir = await mkdtemp(join(process.env['PAYOUT_DESK_REAL_TMPDIR'] ?? tmpdir(), 'payout-desk-scan-pdf-'))
  try {
    const leaky = await pdfWith(`Card ${secret.pan}, code ${secret.cvv}, key ${LIVE_LOOKING_KEY}`)
    // The compressed bytes do not show the number: only the text read back does.
    expect(leaky.toString('latin1')).not.toContain(secret.pan)
    await writeFile(join(dir, 'advice.pdf'), leaky)
    await writeFile(join(dir, 'advices.zip'), zipSync({ 'row-1.pdf': new Uint8Array(leaky) }, { level: 0 }))
    await writeFile(join(dir, 'clean.pdf'), await pdfWith('Payment advice: Access Bank ••••••6789'))
    const { findings } = await scanForCardData({
      paths: [dir],
      secrets: [secret],
      needles: [LIVE_LOOKING_KEY],
    })
    const where = (name: string) => findings.filter((finding) => finding.where.includes(name)).map((f) => f.what)
    expect(where('advice.pdf')).toEqual(
      expect.arrayContaining([
        'PAN of card_x (PDF text)',
        'CVV of card_x (PDF text)',
        '"sk_live_0123…" (PDF text)',
        'an API key sk_live_01… (PDF text)',
      ]),
    )
    expect(where('advices.zip!row-1.pdf')).toContain('PAN of card_x (PDF text)')
    expect(where('clean.pdf')).toEqual([])
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
})
