/**
 * The soak's short version, run with the unit tests on every push: the real desk in its own
 * process against the Sandbox in another, a simulated user, faults and SIGKILLs (tests/soak). The
 * long one: `node --import tsx tests/soak/soak.ts --iterations 1000 --rate-limited 0.3`
 * (docs/reliability.md). Two of its iterations run against a rate-limited Sandbox, one with
 * Retry-After and one without (decision 159); the long soak runs a share of them so.
 */
import { expect, it } from 'vitest'
import { formatReport, runSoak } from './soak-run'

const ITERATIONS = Number(process.env['SOAK_ITERATIONS'] ?? 45)
/** Two iterations of 45 (one window of one iteration each), at 3 requests a second per group. */
const RATE_LIMITED = Number(process.env['SOAK_RATE_LIMITED'] ?? 2 / 45)

it(`a simulated user, faults and kills for ${ITERATIONS} iterations: nothing paid twice, nothing lost`, async () => {
  const seed = Number(process.env['SOAK_SEED'] ?? Date.now() % 100_000)
  const report = await runSoak({
    iterations: ITERATIONS,
    seed,
    armChance: 0.9,
    settleSeconds: 45,
    minKills: 4,
    minCheckpointKills: 1,
    rateLimit: { share: RATE_LIMITED, window: 1, perSecond: 3 },
  })
  console.info(`seed ${seed}\n${formatReport(report)}`)
  expect(report.doublePayments).toEqual([])
  expect(report.lostPayouts).toEqual([])
  expect(report.disagreements).toEqual([])
  // The desk was killed, at random instants and at its checkpoints, and the user carried on.
  expect(report.kills.total).toBeGreaterThanOrEqual(3)
  expect(Object.values(report.kills.atCheckpoint).reduce((a, b) => a + (b ?? 0), 0)).toBeGreaterThanOrEqual(1)
  expect(report.actions['send the run'] ?? 0).toBeGreaterThan(0)
  // Part of it ran against a rate-limited Sandbox, with Retry-After and without.
  if (RATE_LIMITED * ITERATIONS >= 2) {
    expect(report.rateLimited.withRetryAfter).toBeGreaterThanOrEqual(1)
    expect(report.rateLimited.withoutRetryAfter).toBeGreaterThanOrEqual(1)
  }
}, 240_000)
