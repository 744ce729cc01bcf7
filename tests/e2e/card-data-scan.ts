/**
 * Proof that keys, card numbers, CVVs, PINs and OTPs never reach a file: every file the app wrote
 * is searched as UTF-8 and as UTF-16LE (both byte alignments), and inside ZIP containers (XLSX,
 * evidence packs, a ZIP of advices), recursively, inside PDFs as their text (their content streams
 * are compressed: pdftotext reads the text back), plus any captured log text. It looks for
 * - the secrets it is given: PANs and CVVs of the cards the simulator issued, keys, other needles;
 * - what no file may hold whoever wrote it: any card number (by pattern and Luhn, the detector of
 *   shared/rules/sensitive-data.ts), an API key (`sk_test_…`, `sk_live_…`, `sk_sandbox_…`), and a
 *   field named pan, cvv, cvc, pin, otp or card number with a value in it (JSON or key=value);
 * - the PIN and OTP the simulator's test cards take, where a word names them as a PIN or an OTP.
 * Used after every cards test, by the final scan of every e2e run (tests/e2e/global-teardown.ts) and
 * of every unit-test run (tests/unit/global-setup.ts).
 */
import { execFileSync } from 'node:child_process'
import { readdir, readFile, stat } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { unzipSync } from 'fflate'
import { cardNumbersIn } from '../../shared/rules/sensitive-data'
import { CORRECT_OTP, CORRECT_PIN } from '../../electron/sandbox/test-cards'

export interface CardSecret {
  reference: string
  pan: string
  cvv: string
}

export interface Finding {
  where: string
  what: string
}

async function sandboxGet(sandboxUrl: string, secretKey: string, path: string): Promise<unknown> {
  const response = await fetch(sandboxUrl + path, { headers: { authorization: `Bearer ${secretKey}` } })
  if (!response.ok) throw new Error(`GET ${path}: HTTP ${response.status}`)
  return ((await response.json()) as { data: unknown }).data
}

/** Every card the simulator issued, with its PAN and CVV. */
export async function cardSecretsAt(sandboxUrl: string, secretKey: string): Promise<CardSecret[]> {
  const secrets: CardSecret[] = []
  for (let page = 1; ; page++) {
    const list = (await sandboxGet(sandboxUrl, secretKey, `/api/v1/cards?limit=100&page=${page}`)) as {
      data: Array<{ reference: string }>
      paging: { count: number }
    }
    for (const { reference } of list.data) {
      const card = (await sandboxGet(sandboxUrl, secretKey, `/api/v1/cards/${encodeURIComponent(reference)}`)) as {
        pan: string
        cvv: string
      }
      secrets.push({ reference, pan: card.pan, cvv: card.cvv })
    }
    if (page >= list.paging.count) return secrets
  }
}

/**
 * Files a scan leaves out: the simulator's own store (it is the payments service, not the app),
 * tsx's cache of compiled sources (the code, not what it wrote), and anything a test planted on
 * purpose, as input that looks like card data (a folder or file with "planted" in its name).
 */
export function isExcluded(path: string): boolean {
  return (
    /^sandbox-state.*\.jsonl$/.test(basename(path)) ||
    /(^|[\\/])tsx-\d+([\\/]|$)/.test(path) ||
    /(^|[\\/])[^\\/]*planted[^\\/]*([\\/]|$)/.test(path)
  )
}

export async function filesUnder(path: string): Promise<string[]> {
  const info = await stat(path).catch(() => null)
  if (!info) return []
  // A FIFO, socket or device holds nothing written, and reading one would wait for good.
  if (!info.isDirectory()) return !info.isFile() || isExcluded(path) ? [] : [path]
  const entries = await readdir(path)
  return (await Promise.all(entries.map((entry) => filesUnder(join(path, entry))))).flat()
}

/**
 * A short secret (CVV, PIN, OTP) counted only as a number of its own: not inside other digits or
 * words, nor the milliseconds of a log timestamp (`12:04:31.512`), a part of an IP address
 * (`127.0.0.1`), or the whole part of an amount (`1234.50`).
 */
function standalone(value: string): RegExp {
  return new RegExp(`(?<![0-9A-Za-z.:_-])${value}(?![0-9A-Za-z]|[.,][0-9])`)
}

/** Any API key of the shapes the app and its tests use. */
const KEY_PATTERN = /\b(?:sk|pk|rk)_(?:test|live|sandbox)_[A-Za-z0-9_]{6,}/
/** A field named like card data with a value (not null, not masked) in JSON or key=value text. */
const SECRET_FIELD =
  /["']?\b(pan|cvv2?|cvc2?|pin|otp|card_?number|cardNumber)\b["']?\s*[:=]\s*(?!null\b|"?\[redacted\]|""|''|\s)["']?[0-9A-Za-z]/i

/**
 * The test cards' PIN and OTP where something names them as such ("PIN 1234", `otp: 123456`,
 * `authorization.pin=1234`): on their own, four and six digits are row numbers and amounts.
 */
const near = (word: string, value: string): RegExp =>
  new RegExp(`\\b${word}\\b[^0-9\\n]{0,24}(?<![0-9])${value}(?![0-9])`, 'i')
const PIN_AND_OTP = [
  { what: 'the test cards’ PIN', pattern: near('(?:pin|passcode)', CORRECT_PIN) },
  { what: 'the test cards’ OTP', pattern: near('(?:otp|one-time password|one-time code)', CORRECT_OTP) },
]

export interface ScanOptions {
  /** Also look for the PIN and OTP of the simulator's test cards where a word names them. */
  testCardCodes?: boolean
  /**
   * How a CVV counts: as any number of its own (one app's files, after one cards test), or only
   * where a word names it as a code (a whole run's files against every CVV any simulator issued:
   * a big sheet holds most three-digit numbers somewhere).
   */
  cvv?: 'standalone' | 'named'
}

/** Where whole PDFs (`%PDF-` to their last `%%EOF`) sit inside a block of bytes. */
function embeddedPdfs(buffer: Buffer): Array<{ start: number; end: number }> {
  const found: Array<{ start: number; end: number }> = []
  let start = buffer.indexOf('%PDF-', 0, 'latin1')
  while (start >= 0) {
    const next = buffer.indexOf('%PDF-', start + 5, 'latin1')
    const limit = next >= 0 ? next : buffer.length
    const eof = buffer.lastIndexOf('%%EOF', limit, 'latin1')
    // A PDF cut short (no %%EOF of its own) is kept whole too: findInBytes reads what it can of it.
    found.push({ start, end: eof > start ? eof + 5 : limit })
    start = next
  }
  return found
}

/**
 * Chromium's own bookkeeping in a test browser's profile (Playwright's
 * playwright_chromiumdev_profile-*): its preference files hold timestamps and ids of 13 to 19 digits,
 * which pass a card number's checksum at random (one run in several flagged one). They are searched
 * for the known secrets only: the PANs issued and the keys used. What a page stores in the profile
 * (Local Storage, IndexedDB, the caches) is searched in full, as every other file.
 */
const BROWSER_STATE_FILE =
  /playwright_chromiumdev_profile-[^/\\]+[/\\](?:.+[/\\])?(?:Preferences|Secure Preferences|Local State)$/

/** What of `secrets` (or other needles, or the patterns) a block of bytes holds, in UTF-8 or UTF-16LE. */
export function findInBytes(
  where: string,
  bytes: Uint8Array,
  secrets: readonly CardSecret[],
  needles: readonly string[] = [],
  options: ScanOptions = {},
): Finding[] {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (buffer.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) {
    // A ZIP (XLSX, an evidence pack): its parts are compressed, so look inside each.
    try {
      const parts = unzipSync(new Uint8Array(buffer))
      return Object.entries(parts).flatMap(([name, part]) =>
        findInBytes(`${where}!${name}`, part, secrets, needles, options),
      )
    } catch {
      // Not a readable ZIP after all (cut short, such as a cancelled .partial): the PDFs it holds
      // are read back as PDFs, and the rest of its bytes searched as they are.
      const pdfs = embeddedPdfs(buffer)
      if (pdfs.length > 0) {
        const findings = pdfs.flatMap(({ start, end }, i) =>
          findInBytes(`${where}!pdf ${i + 1}`, buffer.subarray(start, end), secrets, needles, options),
        )
        let rest = Buffer.alloc(0)
        let from = 0
        for (const { start, end } of pdfs) {
          rest = Buffer.concat([rest, buffer.subarray(from, start), Buffer.from('\n')])
          from = end
        }
        rest = Buffer.concat([rest, buffer.subarray(from)])
        return [...findings, ...findInBytes(where, rest, secrets, needles, options)]
      }
    }
  }
  const isPdf = buffer.subarray(0, 5).toString('latin1') === '%PDF-'
  const pdfText = isPdf ? textOfPdf(buffer) : null
  if (isPdf && pdfText === null && buffer.lastIndexOf('%%EOF', undefined, 'latin1') < 0) {
    // A PDF cut short cannot be read back: its drawing operators (coordinates such as
    // 335.937 841.1975) read as anything, so only the known secrets are looked for.
    return findInTexts(
      where,
      [{ encoding: 'PDF bytes', text: buffer.toString('latin1'), knownOnly: true }],
      secrets,
      needles,
      options,
    )
  }
  if (pdfText !== null) {
    // A PDF's text is in compressed streams, drawn glyph by glyph: search the text as extracted,
    // and its digits with the spaces taken out (a long number may be laid out in pieces: only the
    // known secrets are looked for there, where any digits glued together would make numbers), and
    // the bytes as they are.
    return findInTexts(
      where,
      [
        { encoding: 'PDF text', text: pdfText },
        { encoding: 'PDF text without spaces', text: pdfText.replace(/\s+/g, ''), knownOnly: true },
        // The bytes only for the known secrets: with the text read back, what remains is drawing
        // operators, whose coordinates (335.937 841.1975) read as anything.
        { encoding: 'PDF bytes', text: buffer.toString('latin1'), knownOnly: true },
      ],
      secrets,
      needles,
      options,
    )
  }
  const knownOnly = BROWSER_STATE_FILE.test(where)
  return findInTexts(
    where,
    [
      { encoding: 'UTF-8', text: buffer.toString('utf8'), knownOnly },
      { encoding: 'UTF-16LE', text: buffer.toString('utf16le'), knownOnly },
      // The UTF-16LE view of a file starting at an odd byte.
      { encoding: 'UTF-16LE', text: buffer.subarray(1).toString('utf16le'), knownOnly },
    ],
    secrets,
    needles,
    options,
  )
}

/** The text of a PDF as pdftotext reads it, or null when it cannot (a damaged or fake PDF: its bytes are searched as they are). */
function textOfPdf(buffer: Buffer): string | null {
  try {
    return execFileSync('pdftotext', ['-enc', 'UTF-8', '-', '-'], {
      input: buffer,
      maxBuffer: 1 << 28,
      stdio: ['pipe', 'pipe', 'ignore'],
    }).toString('utf8')
  } catch {
    return null
  }
}

/** What of `secrets`, `needles` or the patterns the texts (one file's views) hold. */
function findInTexts(
  where: string,
  texts: ReadonlyArray<{ encoding: string; text: string; knownOnly?: boolean }>,
  secrets: readonly CardSecret[],
  needles: readonly string[],
  options: ScanOptions,
): Finding[] {
  const findings: Finding[] = []
  const found = new Set<string>()
  const add = (what: string, encoding: string): void => {
    const key = `${what} (${encoding})`
    if (found.has(key)) return
    found.add(key)
    findings.push({ where, what: key })
  }
  for (const { encoding, text, knownOnly = false } of texts) {
    for (const secret of secrets) {
      if (text.includes(secret.pan)) add(`PAN of ${secret.reference}`, encoding)
      if (knownOnly) continue
      const cvv =
        options.cvv === 'named'
          ? near('(?:cvv2?|cvc2?|csc|security code|card code)', secret.cvv)
          : standalone(secret.cvv)
      if (cvv.test(text)) add(`CVV of ${secret.reference}`, encoding)
    }
    for (const needle of needles) {
      if (text.includes(needle)) add(`"${needle.slice(0, 12)}…"`, encoding)
    }
    if (knownOnly) continue
    for (const { index, length } of cardNumbersIn(text)) {
      const digits = text.slice(index, index + length).replace(/\D/g, '')
      add(`a card number ${digits.slice(0, 6)}…${digits.slice(-4)} (by pattern)`, encoding)
    }
    const key = KEY_PATTERN.exec(text)
    if (key) add(`an API key ${key[0].slice(0, 10)}…`, encoding)
    const field = SECRET_FIELD.exec(text)
    if (field) add(`a "${field[1]}" field with a value`, encoding)
    if (options.testCardCodes) {
      for (const { what, pattern } of PIN_AND_OTP) if (pattern.test(text)) add(what, encoding)
    }
  }
  return findings
}

/** Searches every file under `paths` (but the excluded ones) and every captured text. */
export async function scanForCardData(options: {
  paths: readonly string[]
  texts?: ReadonlyArray<{ where: string; text: string }>
  secrets: readonly CardSecret[]
  needles?: readonly string[]
  testCardCodes?: boolean
  cvv?: ScanOptions['cvv']
}): Promise<{ files: string[]; findings: Finding[] }> {
  const files = [...new Set((await Promise.all(options.paths.map(filesUnder))).flat())]
  const scan: ScanOptions = { testCardCodes: options.testCardCodes ?? false, cvv: options.cvv ?? 'standalone' }
  const findings: Finding[] = []
  for (const file of files) {
    findings.push(...findInBytes(file, await readFile(file), options.secrets, options.needles, scan))
  }
  for (const { where, text } of options.texts ?? []) {
    findings.push(...findInBytes(where, Buffer.from(text, 'utf8'), options.secrets, options.needles, scan))
  }
  return { files, findings }
}
