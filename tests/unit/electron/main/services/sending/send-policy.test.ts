/**
 * The one failure policy for money-moving sends: what each answer means (accepted, refused,
 * exists, unknown), a 429 or a refused connection waited out with the very same request, and no
 * sender anywhere reading a 409 or a duplicate message itself.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ApiFailure } from '../../../../../../electron/main/services/api/payments-client'
import { meaningOfFailure, sendMoney } from '../../../../../../electron/main/services/sending/send-policy'

const SERVICES = join(__dirname, '../../../../../../electron/main/services')

describe('what an answer means', () => {
  it('any duplicate-reference answer is "exists", whichever resource it names and however it comes', () => {
    const answers = [
      new ApiFailure('rejected', 'Duplicate payout reference', false, 409),
      new ApiFailure('rejected', 'Duplicate batch reference', false, 409),
      new ApiFailure('rejected', 'Duplicate card reference', false, 409),
      new ApiFailure('rejected', 'Duplicate payment reference', false, 400),
      new ApiFailure('rejected', 'Conflict', false, 409),
      new ApiFailure('rejected', 'Invalid request data', false, 400, {
        'payouts[3].reference': 'was already used by another payout',
      }),
      new ApiFailure('rejected', 'Transaction has already been completed', false, 400),
    ]
    for (const failure of answers) expect(meaningOfFailure(failure).kind, failure.message).toBe('exists')
  })

  it('a definite refusal is "refused", with the service’s reason', () => {
    expect(meaningOfFailure(new ApiFailure('rejected', 'Insufficient balance', false, 400))).toMatchObject({
      kind: 'refused',
      reason: 'Insufficient balance',
    })
    expect(
      meaningOfFailure(new ApiFailure('rejected', 'Invalid request data', false, 400, { amount: 'is required' })),
    ).toMatchObject({ kind: 'refused' })
    expect(meaningOfFailure(new ApiFailure('unauthorized', 'Bad key', false, 401)).kind).toBe('refused')
  })

  it('anything unclear is "unknown": timeouts, resets, 5xx, not JSON, "not caused by the request", a bug', () => {
    const unclear = [
      new ApiFailure('outcome_unknown', 'No answer within 30 s', true),
      new ApiFailure('outcome_unknown', 'HTTP 502', true, 502),
      new ApiFailure('outcome_unknown', 'Unexpected response from the service', true, 200),
      new ApiFailure('rejected', 'An error occurred, please try again', false, 400),
      new ApiFailure('rejected', 'Service currently unavailable', false, 400),
      new ApiFailure('bad_response', 'odd', false),
      new TypeError('fetch failed'),
      'a thrown string',
    ]
    for (const failure of unclear) expect(meaningOfFailure(failure).kind, String(failure)).toBe('unknown')
  })

  it('a 429 and a connection refused before anything left are waited out', () => {
    expect(
      meaningOfFailure(new ApiFailure('rate_limited', 'Too many', false, 429, { retryAfterSeconds: 7 })),
    ).toMatchObject({ kind: 'wait', seconds: 7 })
    expect(meaningOfFailure(new ApiFailure('unreachable', 'ECONNREFUSED', false))).toMatchObject({
      kind: 'wait',
      seconds: 1,
    })
  })
})

describe('sending through the policy', () => {
  it('sends the very same request again after each 429, journaled, and passes its checkpoints in order', async () => {
    const events: string[] = []
    let calls = 0
    const outcome = await sendMoney(
      async () => {
        calls++
        events.push(`request ${calls}`)
        if (calls < 3) throw new ApiFailure('rate_limited', 'Too many', false, 429, { retryAfterSeconds: 2 })
        return 'taken'
      },
      {
        reference: 'REF-1',
        note: async (text) => void events.push(`note: ${text}`),
        sleep: async (ms) => void events.push(`wait ${ms}`),
        hooks: {
          afterIntent: (reference) => void events.push(`intent on disk ${reference}`),
          afterAnswer: (reference) => void events.push(`answered ${reference}`),
        },
      },
    )
    expect(outcome).toEqual({ kind: 'accepted', answer: 'taken' })
    expect(events).toEqual([
      'intent on disk REF-1',
      'request 1',
      'note: Not taken (the service is limiting requests); the same request goes again in 2 s, with the same reference.',
      'wait 2000',
      'request 2',
      'note: Not taken (the service is limiting requests); the same request goes again in 2 s, with the same reference.',
      'wait 2000',
      'request 3',
      'answered REF-1',
    ])
  })

  it('past its bound, a request the service kept refusing to take is refused: nothing was taken', async () => {
    let calls = 0
    const outcome = await sendMoney(
      async () => {
        calls++
        throw new ApiFailure('rate_limited', 'Too many', false, 429, { retryAfterSeconds: 1 })
      },
      { reference: 'REF-2', note: async () => undefined, sleep: async () => undefined, maxResends: 3 },
    )
    expect(calls).toBe(4)
    expect(outcome).toMatchObject({ kind: 'refused', notTakenYet: true })
    expect((outcome as { reason: string }).reason).toMatch(/^Not taken by the payments service: .*Nothing was sent\.$/)
  })

  it('a Retry-After longer than the desk waits is a refusal at once, never a blind resend', async () => {
    let calls = 0
    const outcome = await sendMoney(
      async () => {
        calls++
        throw new ApiFailure('rate_limited', 'Too many', false, 429, { retryAfterSeconds: 3600 })
      },
      { reference: 'REF-3', note: async () => undefined, sleep: async () => undefined },
    )
    expect(calls).toBe(1)
    expect(outcome.kind).toBe('refused')
  })
})

describe('one policy', () => {
  it('no sender reads a 409 or a duplicate message itself: only the policy module does', () => {
    const files: string[] = []
    const walk = (folder: string): void => {
      for (const name of readdirSync(folder)) {
        const path = join(folder, name)
        if (statSync(path).isDirectory()) walk(path)
        else if (path.endsWith('.ts')) files.push(path)
      }
    }
    walk(SERVICES)
    const readers = files.filter((file) => /\b409\b|Duplicate/.test(readFileSync(file, 'utf8')))
    expect(readers.map((file) => relative(SERVICES, file))).toEqual(['sending/send-policy.ts'])
  })
})
