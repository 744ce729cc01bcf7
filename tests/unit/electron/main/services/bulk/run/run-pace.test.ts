/**
 * A run's pace in words (run-pace.ts, decision 144) on a simulated clock: computed from what
 * answered over the last five seconds, so the words follow the service as it slows or speeds up.
 */
import { describe, expect, it } from 'vitest'
import {
  AnswerMeter,
  checkingInWords,
  followingInWords,
  sendingInWords,
} from '../../../../../../../electron/main/services/bulk/run/run-pace'

function clock() {
  const time = { now: 1_000_000 }
  return { time, now: () => time.now }
}

describe('the pace of a run in words', () => {
  it('says how many names a second answered lately, and follows a service that slows down', () => {
    const { time, now } = clock()
    const meter = new AnswerMeter(now)
    expect(checkingInWords(meter)).toBe('waiting for the service')
    // 60 answers a second for 10 s.
    for (let ms = 0; ms < 10_000; ms += 1000 / 60) {
      time.now = 1_000_000 + ms
      meter.answered()
    }
    expect(checkingInWords(meter)).toBe('checking about 60 names a second')
    // Then 12 a second for 6 s: the last five seconds are all at the new pace.
    const slowFrom = time.now
    for (let ms = 0; ms < 6_000; ms += 1000 / 12) {
      time.now = slowFrom + ms
      meter.answered()
    }
    expect(checkingInWords(meter)).toBe('checking about 10 names a second')
    // Nothing answers for 6 s: the service is waited for.
    time.now += 6_000
    expect(checkingInWords(meter)).toBe('waiting for the service')
  })

  it('measures a young step over its own age, at least one second', () => {
    const { time, now } = clock()
    const meter = new AnswerMeter(now)
    meter.answered(3)
    time.now += 500
    expect(sendingInWords(meter)).toBe('sending about 3 batches a second')
    time.now += 1_500
    meter.answered(3)
    // 6 answers in 2 s.
    expect(sendingInWords(meter)).toBe('sending about 3 batches a second')
    time.now += 1_000
    meter.answered(1)
    // 7 in 3 s: 2.33, said as 2.
    expect(sendingInWords(meter)).toBe('sending about 2 batches a second')
  })

  it('says a slow pace and the batches followed in plain words', () => {
    const { time, now } = clock()
    const meter = new AnswerMeter(now)
    meter.answered()
    time.now += 4_000
    expect(sendingInWords(meter)).toBe('sending about 1 batch every 4 seconds')
    expect(followingInWords(12)).toBe('following 12 batches')
    expect(followingInWords(1)).toBe('following 1 batch')
  })
})
