/**
 * Every key the tests use, read from the tests' own sources, so the final scans look for each of
 * them without a list kept by hand: string literals given to a secret or encryption key (by name:
 * `secretKey`, `encryptionKey`, `SECRET`, `SECRET_KEY`, `ENCRYPTION_KEY`, `value` of secrets:set …)
 * or shaped like one (`sk_test_…`, `sk_live_…`).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'

const ASSIGNED =
  /\b(?:secretKey|encryptionKey|secret_key|encryption_key|SECRET(?:_KEY)?|ENCRYPTION_KEY|[A-Z_]*KEY)\s*[:=]\s*['"`]([^'"`$\n]{8,})['"`]/g
const SHAPED = /['"`]((?:sk|pk)_(?:test|live)_[A-Za-z0-9_]{6,})['"`]/g

function sources(directory: string): string[] {
  return readdirSync(directory).flatMap((entry) => {
    const path = join(directory, entry)
    if (statSync(path).isDirectory()) return entry === 'node_modules' ? [] : sources(path)
    return path.endsWith('.ts') ? [path] : []
  })
}

export function testKeys(root = join(__dirname, '..')): string[] {
  const keys = new Set<string>()
  for (const file of [...sources(join(root, 'unit')), ...sources(join(root, 'e2e'))]) {
    const text = readFileSync(file, 'utf8')
    for (const match of text.matchAll(ASSIGNED)) keys.add(match[1] as string)
    for (const match of text.matchAll(SHAPED)) keys.add(match[1] as string)
  }
  // Words, not keys: a constant such as a storage key name is not a secret.
  return [...keys].filter((key) => !/^[a-z]+(?:[-:.][a-z]+)*$/.test(key) && !key.includes(' '))
}
