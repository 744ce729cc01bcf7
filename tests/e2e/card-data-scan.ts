/**
 * Proof that card numbers and CVVs never reach a file: every card the simulator issued is read
 * back (PAN and CVV, straight from the simulator), and every file the app wrote is searched for
 * them as UTF-8 and as UTF-16LE bytes, inside ZIP containers (XLSX, a ZIP of advices) too, inside
 * PDFs as their text (their content streams are compressed: pdftotext reads the text back), plus
 * any captured log text.
 */
import { execFileSync } from 'node:child_process'
import { readdir, readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { unzipSync } from 'fflate'

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

export async function filesUnder(path: string): Promise<string[]> {
  const info = await stat(path).catch(() => null)
  if (!info) return []
  if (!info.isDirectory()) return [path]
  const entries = await readdir(path)
  return (await Promise.all(entries.map((entry) => filesUnder(join(path, entry))))).flat()
}

/**
 * A CVV is three or four digits: count it only as a number of its own, not inside other digits or
 * words, nor as the milliseconds of a log timestamp (`12:04:31.512`) or a part of an IP address
 * (`127.0.0.1`), which every log line has.
 */
function cvvPattern(cvv: string): RegExp {
  return new RegExp(`(?<![0-9A-Za-z.:])${cvv}(?![0-9A-Za-z]|\\.[0-9])`)
}

/** What of `secrets` (or other needles) a block of bytes holds, in UTF-8 or UTF-16LE. */
export function findInBytes(
  where: string,
  bytes: Uint8Array,
  secrets: readonly CardSecret[],
  needles: readonly string[] = [],
): Finding[] {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (buffer.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) {
    // A ZIP (XLSX): its parts are compressed, so look inside each.
    try {
      const parts = unzipSync(new Uint8Array(buffer))
      return Object.entries(parts).flatMap(([name, part]) => findInBytes(`${where}!${name}`, part, secrets, needles))
    } catch {
      // Not a readable ZIP after all: search the bytes as they are.
    }
  }
  if (buffer.subarray(0, 5).toString('latin1') === '%PDF-') {
    // A PDF's text is in compressed streams, drawn glyph by glyph: search the text as extracted.
    const text = execFileSync('pdftotext', ['-enc', 'UTF-8', '-', '-'], { input: buffer, maxBuffer: 1 << 28 })
    return [
      ...findInText(`${where} (text)`, text.toString('utf8'), secrets, needles),
      // A long number may be laid out in pieces: its digits, spaces taken out (no CVV test there).
      ...findInText(`${where} (text)`, text.toString('utf8').replace(/\s+/g, ''), secrets, needles, false),
      ...findInText(`${where} (bytes)`, buffer.toString('latin1'), secrets, needles),
    ]
  }
  const findings: Finding[] = []
  const texts = [
    { encoding: 'UTF-8', text: buffer.toString('utf8') },
    { encoding: 'UTF-16LE', text: buffer.toString('utf16le') },
    // The UTF-16LE view of a file starting at an odd byte.
    { encoding: 'UTF-16LE', text: buffer.subarray(1).toString('utf16le') },
  ]
  for (const { encoding, text } of texts) {
    for (const secret of secrets) {
      if (text.includes(secret.pan)) findings.push({ where, what: `PAN of ${secret.reference} (${encoding})` })
      if (cvvPattern(secret.cvv).test(text)) findings.push({ where, what: `CVV of ${secret.reference} (${encoding})` })
    }
    for (const needle of needles) {
      if (text.includes(needle)) findings.push({ where, what: `"${needle.slice(0, 12)}…" (${encoding})` })
    }
    if (/"(pan|cvv)"\s*:/i.test(text)) findings.push({ where, what: `a "pan" or "cvv" field (${encoding})` })
  }
  return findings
}

/** What of `secrets` (or other needles) a text holds. */
function findInText(
  where: string,
  text: string,
  secrets: readonly CardSecret[],
  needles: readonly string[],
  cvvs = true,
): Finding[] {
  const findings: Finding[] = []
  for (const secret of secrets) {
    if (text.includes(secret.pan)) findings.push({ where, what: `PAN of ${secret.reference} (PDF)` })
    if (cvvs && cvvPattern(secret.cvv).test(text)) findings.push({ where, what: `CVV of ${secret.reference} (PDF)` })
  }
  for (const needle of needles)
    if (text.includes(needle)) findings.push({ where, what: `"${needle.slice(0, 12)}…" (PDF)` })
  return findings
}

/** Searches every file under `paths` and every captured text. */
export async function scanForCardData(options: {
  paths: readonly string[]
  texts?: ReadonlyArray<{ where: string; text: string }>
  secrets: readonly CardSecret[]
  needles?: readonly string[]
}): Promise<{ files: string[]; findings: Finding[] }> {
  const files = (await Promise.all(options.paths.map(filesUnder))).flat()
  const findings: Finding[] = []
  for (const file of files) findings.push(...findInBytes(file, await readFile(file), options.secrets, options.needles))
  for (const { where, text } of options.texts ?? []) {
    findings.push(...findInBytes(where, Buffer.from(text, 'utf8'), options.secrets, options.needles))
  }
  return { files, findings }
}
