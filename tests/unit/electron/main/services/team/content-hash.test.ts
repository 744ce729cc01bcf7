/**
 * The desk's streamed content hash (Node's SHA-256 fed the canonical text a few hundred rows at a
 * time) is the hash every other side computes: Web Crypto over the whole text (runContentHash, the
 * renderer's and the tests') and so the database's run_content_text (database-rules.test.ts).
 */
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import type { TeamRunContent } from '../../../../../../shared/domain/team'
import { runContentHash, runContentText } from '../../../../../../shared/team/run-content'
import { contentHashOf } from '../../../../../../electron/main/services/team/content-hash'

function contentOf(count: number, awkward = false): TeamRunContent {
  return {
    currency: 'KES',
    merchantBearsCost: true,
    description: 'not hashed',
    rows: Array.from({ length: count }, (_, i) => ({
      reference: `R-${i}`,
      amount: `${i + 1}.0${i % 10}`,
      bank_code: '044',
      account_number: String(1_000_000_000 + i),
      customer_name: awkward && i % 3 === 0 ? `Zoë\tO\\bi\r\nline ${i} 💸 é` : `Name ${i}`,
      customer_email: awkward && i % 5 === 0 ? 'tab\there@example.com\\' : `p${i}@example.com`,
      narration: awkward && i % 7 === 0 ? '\\t is not a tab\n' : '',
    })),
  }
}

describe('contentHashOf (the releasing desk hashes what it will send)', () => {
  it.each([
    ['one row', 1, false],
    ['a chunk and a bit, awkward text in fields (tabs, CR LF, backslashes, emoji, combining marks)', 1234, true],
    ['exactly two chunks', 1000, true],
    ['10,000 rows', 10_000, false],
  ])('%s: the same hash as runContentHash and as SHA-256 of the whole text', async (_what, count, awkward) => {
    const content = contentOf(count, awkward)
    const whole = createHash('sha256').update(runContentText(content), 'utf8').digest('hex')
    expect(contentHashOf(content)).toBe(whole)
    expect(contentHashOf(content)).toBe(await runContentHash(content))
  })

  it('changes when any sent field of any row changes, even past the first chunk', () => {
    const content = contentOf(1234, true)
    const base = contentHashOf(content)
    content.rows[777]!.customer_name += ' '
    expect(contentHashOf(content)).not.toBe(base)
  })
})
