/** A bulk run's id and its batch references: accepted by the IPC contract, never card-number-like. */
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { batchReferenceOf, runIdOf } from '../../../../shared/domain/bulk-run'
import { channels } from '../../../../shared/ipc/contract'
import { looksLikeCardNumber } from '../../../../electron/main/services/export/export-guard'

const createdAt = '2026-11-22T07:23:05.123Z'

describe('runIdOf', () => {
  it('is BR, the ISO stamp with its letters, the file hash and the random part', () => {
    expect(runIdOf(createdAt, 'abcdef0123', '9f3c')).toBe('BR20261122T072305Zabcdef9f3c')
    expect(runIdOf(createdAt, 'abcdef0123', '9f3c', 2)).toBe('BR20261122T072305Zabcdef9f3c-2')
  })

  it('is accepted by every bulk channel that takes a run, and so are run ids made before', () => {
    const input = channels['bulk:rows'].input
    expect(input.safeParse({ runId: runIdOf(createdAt, 'abcdef', '0000') }).success).toBe(true)
    expect(input.safeParse({ runId: runIdOf(createdAt, 'abcdef', '0000', 3) }).success).toBe(true)
    expect(input.safeParse({ runId: 'BR20260101000000abcdef0000' }).success).toBe(true)
    expect(input.safeParse({ runId: 'BR2026T../../etc' }).success).toBe(false)
  })

  it('never gives a run id or batch reference the export guard takes for a card number', () => {
    // File hashes that start with digits: the stamp used to run straight into them.
    let digitLed = 0
    for (let i = 0; i < 2000; i++) {
      const sha = createHash('sha256').update(String(i)).digest('hex')
      if (!/^\d{4}/.test(sha)) continue
      digitLed++
      const random = createHash('sha256').update(`r${i}`).digest('hex').slice(0, 4)
      const id = runIdOf(createdAt, sha, random)
      expect(looksLikeCardNumber(id), id).toBe(false)
      expect(looksLikeCardNumber(batchReferenceOf(id, i % 40)), id).toBe(false)
    }
    expect(digitLed).toBeGreaterThan(50)
    // The old form ran the stamp straight into the hash: where such a run of digits stands on its
    // own (after a dash, in a file name), the guard takes some of them for card numbers.
    const oldForm = (sha: string) => `run-20261122072305${sha.slice(0, 5)}.xlsx`
    const caught = Array.from({ length: 2000 }, (_, i) => createHash('sha256').update(String(i)).digest('hex')).filter(
      (sha) => looksLikeCardNumber(oldForm(sha)),
    )
    expect(caught.length).toBeGreaterThan(0)
  })
})
