/**
 * The scans that close every test run (tests/scan/final-scan.ts) can fail: planted keys, card
 * numbers, CVVs, PINs and OTPs are found in UTF-8, in UTF-16LE at either byte alignment, inside the
 * parts of an XLSX and of a ZIP inside a ZIP, and in folders a test removed; clean files pass.
 */
import { existsSync, readdirSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { strToU8, zipSync } from 'fflate'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { scanForCardData } from '../../e2e/card-data-scan'
import { finalScan, MANIFEST_DIR } from '../../scan/final-scan'
import { SCAN_ROOT_ENV } from '../../scan/keep-removed'
import { testKeys } from '../../scan/test-keys'

/** Outside this run's scan root, so what is planted here never reaches the run's own final scan. */
let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(process.env['PAYOUT_DESK_REAL_TMPDIR'] ?? tmpdir(), 'payout-desk-scan-proof-'))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

const card = { reference: 'card_x', pan: '5399831234567890', cvv: '482' }
const key = 'sk_test_0123456789abcdef'

describe('the secret scan', () => {
  it("reads a test browser's own preference files for the known secrets only, and what its pages stored in full", async () => {
    const profile = join(dir, 'playwright_chromiumdev_profile-AbC123', 'Default')
    await mkdir(join(profile, 'Local Storage'), { recursive: true })
    // Chromium's timestamps: digits that pass a card number's checksum, and are none.
    const bookkeeping = JSON.stringify({ profile: { last_engagement_time: '4084127883172787' } })
    await writeFile(join(profile, 'Preferences'), bookkeeping)
    await writeFile(join(dir, 'playwright_chromiumdev_profile-AbC123', 'Local State'), bookkeeping)
    const quiet = await scanForCardData({
      paths: [join(dir, 'playwright_chromiumdev_profile-AbC123')],
      secrets: [card],
    })
    expect(quiet.findings).toEqual([])

    // An issued PAN or a key in them is still found; a number a page stored is found by pattern.
    await writeFile(join(profile, 'Preferences'), JSON.stringify({ leaked: card.pan, k: key }))
    await writeFile(join(profile, 'Local Storage', 'leveldb.log'), 'draft 4084 1278 8317 2787')
    const loud = await scanForCardData({
      paths: [join(dir, 'playwright_chromiumdev_profile-AbC123')],
      secrets: [card],
      needles: [key],
    })
    expect(loud.findings.map((finding) => [finding.where.slice(dir.length), finding.what])).toEqual([
      [
        '/playwright_chromiumdev_profile-AbC123/Default/Local Storage/leveldb.log',
        'a card number 408412…2787 (by pattern) (UTF-8)',
      ],
      ['/playwright_chromiumdev_profile-AbC123/Default/Preferences', 'PAN of card_x (UTF-8)'],
      ['/playwright_chromiumdev_profile-AbC123/Default/Preferences', '"sk_test_0123…" (UTF-8)'],
    ])
  })

  it('finds planted card data and keys in every encoding and container, and nothing in clean files', async () => {
    const folder = join(dir, 'written')
    await mkdir(folder)
    await writeFile(
      join(folder, 'clean.json'),
      JSON.stringify({ first_six: '539983', last_four: '7890', seq: 4821, pin: null }),
    )
    await writeFile(
      join(folder, 'clean.log'),
      '[2026-03-01 12:34:56.482] movement payout PD-1 success; cvv=[redacted] 1234.50 NGN',
    )
    const clean = await scanForCardData({ paths: [folder], secrets: [card], needles: [key], testCardCodes: true })
    expect(clean.findings).toEqual([])

    await writeFile(join(folder, 'utf8.log'), `number ${card.pan} key ${key}`)
    await writeFile(join(folder, 'utf16.txt'), Buffer.from(`card ${card.pan}; code ${card.cvv}.`, 'utf16le'))
    await writeFile(join(folder, 'odd.bin'), Buffer.concat([Buffer.from([7]), Buffer.from(key, 'utf16le')]))
    await writeFile(
      join(folder, 'book.xlsx'),
      zipSync({ 'xl/sharedStrings.xml': strToU8(`<si><t>${card.pan}</t></si>`) }),
    )
    const inner = zipSync({ 'rows.json': strToU8('{"otp": "123456"}') })
    await writeFile(join(folder, 'evidence.zip'), zipSync({ 'nested.zip': inner }))
    await writeFile(join(folder, 'settings.json'), '{"cvv": "911"}')
    await writeFile(join(folder, 'any-card.csv'), 'note,4084 1278 8317 2787\n')
    await writeFile(join(folder, 'pin.log'), 'the PIN was 1234 and the OTP 123456')
    const { findings } = await scanForCardData({
      paths: [folder],
      secrets: [card],
      needles: [key],
      testCardCodes: true,
    })
    const at = (name: string) => findings.filter((finding) => finding.where.includes(name)).map((f) => f.what)
    expect(at('utf8.log')).toEqual(expect.arrayContaining(['PAN of card_x (UTF-8)', '"sk_test_0123…" (UTF-8)']))
    expect(at('utf16.txt')).toEqual(expect.arrayContaining(['PAN of card_x (UTF-16LE)', 'CVV of card_x (UTF-16LE)']))
    expect(at('odd.bin')).toContain('"sk_test_0123…" (UTF-16LE)')
    expect(at('book.xlsx!xl/sharedStrings.xml')).toContain('PAN of card_x (UTF-8)')
    expect(at('evidence.zip!nested.zip!rows.json')).toEqual(
      expect.arrayContaining(['a "otp" field with a value (UTF-8)', 'the test cards’ OTP (UTF-8)']),
    )
    expect(at('settings.json')).toContain('a "cvv" field with a value (UTF-8)')
    expect(at('any-card.csv')).toContain('a card number 408412…2787 (by pattern) (UTF-8)')
    expect(at('pin.log')).toEqual(['the test cards’ PIN (UTF-8)', 'the test cards’ OTP (UTF-8)'])
    expect(at('clean')).toEqual([])
  })

  it('keeps what a test removes under the run root, where the final scan finds it', async () => {
    const root = process.env[SCAN_ROOT_ENV]
    expect(root, 'the unit run has a scan root').toBeTruthy()
    const removed = await mkdtemp(join(tmpdir(), 'removed-by-a-test-'))
    expect(removed.startsWith(root!)).toBe(true)
    await writeFile(join(removed, 'journal.jsonl'), '{"reference":"PD-1"}\n')
    await rm(removed, { recursive: true, force: true })
    expect(existsSync(removed)).toBe(false)
    const kept = readdirSync(join(root!, 'removed')).find((name) => name.endsWith(removed.split('/').pop()!))
    expect(kept).toBeDefined()
    expect(await readFile(join(root!, 'removed', kept!, 'journal.jsonl'), 'utf8')).toContain('PD-1')
  })

  it('the final scan of a run root reads the keys of the tests and what the fixtures learned', async () => {
    const root = join(dir, 'run')
    await mkdir(join(root, MANIFEST_DIR), { recursive: true })
    await mkdir(join(root, 'removed', 'app-user-data'), { recursive: true })
    await writeFile(
      join(root, MANIFEST_DIR, 'one.json'),
      JSON.stringify({ cards: [card], keys: ['enc_generated_by_a_fixture_0001'] }),
    )
    await writeFile(join(root, 'removed', 'app-user-data', 'main.log'), 'key enc_generated_by_a_fixture_0001')
    // An encryption key of a test: no pattern knows it, only the list read from the tests' sources.
    const encryptionKey = testKeys().find((key) => key.includes('encryption-key'))!
    await writeFile(join(root, 'export.csv'), encryptionKey)
    // Across a whole run, a CVV counts where a word names it: a sheet holds most three-digit numbers.
    await writeFile(join(root, 'report.csv'), 'row,customer\n482,Customer 482\n')
    await writeFile(join(root, 'declined.log'), 'declined: security code 482 did not match')
    const { files, findings } = await finalScan(root)
    expect(files).toBe(4)
    expect(findings.map((finding) => `${finding.where.replace(root, '')}: ${finding.what}`).sort()).toEqual([
      '/declined.log: CVV of card_x (UTF-8)',
      `/export.csv: "${encryptionKey.slice(0, 12)}…" (UTF-8)`,
      '/removed/app-user-data/main.log: "enc_generate…" (UTF-8)',
    ])
  })
})
