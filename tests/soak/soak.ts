/**
 * The soak from the command line:
 *
 *   node --import tsx tests/soak/soak.ts [--iterations 1000] [--seed 1]
 *     [--rate-limited 0.3] [--rate-window 10] [--rate-per-second 3]
 *
 * `--rate-limited` is the share of iterations run against a rate-limited Sandbox (decision 159),
 * in windows of `--rate-window` iterations, with and without Retry-After in turn.
 * prints what it did (runs, actions, faults, kills) and what the Sandbox says (double payments,
 * lost payouts, disagreements), and exits 1 when anything was paid twice or lost, or the desk's
 * view disagrees with the service once everything has settled.
 */
import { parseArgs } from 'node:util'
import { formatReport, runSoak } from './soak-run'

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      iterations: { type: 'string', default: '200' },
      seed: { type: 'string', default: String(Date.now() % 100_000) },
      'rate-limited': { type: 'string', default: '0' },
      'rate-window': { type: 'string', default: '10' },
      'rate-per-second': { type: 'string', default: '3' },
    },
  })
  const iterations = Number(values.iterations)
  const seed = Number(values.seed)
  if (!Number.isInteger(iterations) || iterations < 1) throw new Error('--iterations must be a positive integer')
  if (!Number.isInteger(seed) || seed < 0) throw new Error('--seed must be a non-negative integer')
  const share = Number(values['rate-limited'])
  const window = Number(values['rate-window'])
  const perSecond = Number(values['rate-per-second'])
  if (!(share >= 0 && share <= 1)) throw new Error('--rate-limited must be a share of the iterations, from 0 to 1')
  if (!Number.isInteger(window) || window < 1) throw new Error('--rate-window must be a positive integer')
  if (!(perSecond > 0)) throw new Error('--rate-per-second must be a number of requests a second above 0')
  console.log(
    `soak: ${iterations} iterations, seed ${seed}${share > 0 ? `; ${share * 100}% of them rate-limited at ${perSecond}/s in windows of ${window}` : ''}`,
  )
  const report = await runSoak({
    iterations,
    seed,
    log: (line) => console.log(line),
    ...(share > 0 ? { rateLimit: { share, window, perSecond } } : {}),
  })
  console.log(formatReport(report))
  const failed = report.doublePayments.length + report.lostPayouts.length + report.disagreements.length > 0
  process.exit(failed ? 1 : 0)
}

main().catch((error: unknown) => {
  console.error(`soak: ${(error as Error).stack ?? String(error)}`)
  process.exit(2)
})
