/**
 * The scan at the end of a whole test run (vitest and Playwright alike): every file under the run's
 * scan root, kept or removed by its test, for every test key, every card number (by pattern and by
 * the PANs the simulators issued), the CVVs they issued and the test cards' PIN and OTP where a word
 * names them as such, and card-data fields with a value.
 */
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { CardSecret, Finding } from '../e2e/card-data-scan'
import { scanForCardData } from '../e2e/card-data-scan'
import { testKeys } from './test-keys'

/** What a run learned while it ran (a fixture's simulator keys and issued cards), one JSON file each. */
export interface SecretsManifest {
  cards: CardSecret[]
  keys: string[]
}

export const MANIFEST_DIR = 'secrets-manifests'

export async function finalScan(root: string): Promise<{ files: number; findings: Finding[] }> {
  const manifests = await readdir(join(root, MANIFEST_DIR)).catch(() => [] as string[])
  const cards: CardSecret[] = []
  const keys = new Set(testKeys())
  for (const name of manifests) {
    const manifest = JSON.parse(await readFile(join(root, MANIFEST_DIR, name), 'utf8')) as SecretsManifest
    cards.push(...manifest.cards)
    for (const key of manifest.keys) keys.add(key)
  }
  const entries = (await readdir(root)).filter((entry) => entry !== MANIFEST_DIR)
  const { files, findings } = await scanForCardData({
    paths: entries.map((entry) => join(root, entry)),
    secrets: cards,
    needles: [...keys],
    testCardCodes: true,
    cvv: 'named',
  })
  return { files: files.length, findings }
}

export function report(findings: readonly Finding[], root: string): string {
  const lines = findings.slice(0, 50).map((finding) => `  ${finding.where.replace(root, '<run>')}: ${finding.what}`)
  return `${findings.length} secret(s) found in files the tests wrote:\n${lines.join('\n')}${findings.length > 50 ? '\n  …' : ''}`
}
