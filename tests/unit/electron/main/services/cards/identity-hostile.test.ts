/**
 * The whole hostile corpus (tests/fixtures/hostile/, decision 27) through the identity-document
 * check, both ways a document comes in (chosen with Open, and dropped: read by its path): each file ends in
 * a clear error naming it, or is held as the kind its content says, within bounded time and memory.
 * The check reads kind and end markers only; it never renders or runs what is inside.
 */
import { describe, expect, it } from 'vitest'
import {
  HOSTILE_NAMES,
  MAX_MAIN_LAG_MS,
  isClearMessage,
  mainAnswered,
  runReader,
} from '../../../../hostile/hostile-corpus'

/** Files whose content is a whole JPEG, PNG or PDF (whatever their names say), and what they are held as. */
const ACCEPTED: Record<string, string> = {
  'identity-scan.png': 'png',
  'jpeg-named.xls': 'jpeg',
  'pdf-named.xlsx': 'pdf',
  'pdf-with-javascript.pdf': 'pdf',
}

describe('the hostile corpus through the identity-document check', () => {
  it('holds whole JPEG, PNG and PDF files by content and refuses everything else clearly, in bounded time and memory', async () => {
    const outcomes = await runReader('identity', { timeoutMs: 900_000 })
    expect(outcomes.map((outcome) => outcome.name)).toEqual(HOSTILE_NAMES)
    for (const outcome of outcomes) {
      const kind = ACCEPTED[outcome.name]
      if (kind) expect(`${outcome.outcome} ${outcome.result}`, outcome.name).toBe(`ok ${kind}`)
      else {
        expect(outcome.outcome, `${outcome.name}: ${outcome.message}`).toBe('refused')
        expect(outcome.code).toBe('bad_request')
        expect(isClearMessage(outcome.message, outcome.name), outcome.message).toBe(true)
        expect(outcome.message).toMatch(
          /: (The file is empty\.|The file is larger than the 5 MB limit|The file is not a JPEG, PNG or PDF|The file starts as a (JPEG image|PNG image|PDF) but is cut short)/,
        )
      }
      // Checked in the file reader's worker (decision 100): main keeps answering throughout; the
      // check (a worker started for the chosen file and one for the dropped one) ends in bounded time.
      const [lag, said] = mainAnswered(outcome)
      expect(lag, said).toBeLessThan(MAX_MAIN_LAG_MS)
      expect(outcome.ms, `${outcome.name} took ${outcome.ms} ms`).toBeLessThan(30_000)
      // A 70 MB file is refused by its size before any of it is read.
      expect(outcome.peakRssMb, `peak RSS ${outcome.peakRssMb} MB after ${outcome.name}`).toBeLessThan(400)
      expect(outcome.polluted).toBe(false)
    }
    const refusedBySize = outcomes.filter((outcome) => /larger than the 5 MB limit/.test(outcome.message ?? ''))
    expect(refusedBySize.map((outcome) => outcome.name)).toEqual(
      expect.arrayContaining(['large-50mb.csv', 'over-limit-70mb.csv', 'one-line-10mb.csv']),
    )
  }, 1_000_000)
})
