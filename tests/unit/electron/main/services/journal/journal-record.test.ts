/**
 * One journal line as written (seal): the record's JSON with its hash, and its seal when there is
 * one, as its last fields. The line is made from the record's text once; what Verify and the
 * reader see of it is the same as the record with those fields added, integer-like keys and all.
 */
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import {
  lineHashMatches,
  parseRecord,
  seal,
  type JournalRecord,
} from '../../../../../../electron/main/services/journal/journal-record'

const intent: JournalRecord = {
  seq: 7,
  at: '2026-11-29T00:00:00.000Z',
  reference: 'BATCH-1',
  movement: 'bulk_batch',
  prev: 'a'.repeat(64),
  type: 'intent',
  profileId: 'p1',
  mode: 'sandbox',
  request: {
    items: [
      { reference: 'R-1', amount: '1500.00', customer_name: 'Ada "the payee" Obi\u2028', narration: 'é ü \\ /' },
      { reference: 'R-2', amount: '0.01', metadata: { '123': 'integer-like key', z: null, a: [] } },
    ],
  },
}
const event: JournalRecord = {
  seq: 8,
  at: '2026-11-29T00:00:01.000Z',
  reference: 'BATCH-1',
  movement: 'bulk_batch',
  prev: 'b'.repeat(64),
  type: 'event',
  note: 'Accepted',
  data: { '2': 'two', '10': 'ten', answered: { status: 'queued' } },
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex')

describe('a journal line as sealed', () => {
  for (const [kind, record] of [
    ['an intent with nested items', intent],
    ['an event whose data has integer-like keys', event],
  ] as const) {
    it(`is the record with its hash as the last field: ${kind}`, () => {
      const { line, hash } = seal(record)
      expect(hash).toBe(sha256(JSON.stringify(record)))
      expect(line).toBe(JSON.stringify({ ...record, hash }))
      const read = parseRecord(line)!
      expect(read).toEqual({ ...record, hash })
      expect(lineHashMatches(line, read)).toBe(true)
    })

    it(`carries its seal after the hash: ${kind}`, () => {
      const macOf = (of: string): string => sha256(`key:${of}`)
      const { line, hash } = seal(record, macOf)
      expect(line).toBe(JSON.stringify({ ...record, hash, mac: macOf(hash) }))
      const read = parseRecord(line)!
      expect(read.mac).toBe(macOf(hash))
      expect(lineHashMatches(line, read)).toBe(true)
    })
  }

  it('is found changed when one character of the record is', () => {
    const { line } = seal(intent)
    const edited = line.replace('1500.00', '1500.01')
    expect(lineHashMatches(edited, parseRecord(edited)!)).toBe(false)
  })
})
