/**
 * The soak from the command line:
 *
 *   node --import tsx tests/soak/soak.ts [--iterations 1000] [--seed 1]
 *
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
    },
  })
  const iterations = Number(values.iterations)
  const seed = Number(values.seed)
  if (!Number.isInteger(iterations) || iterations < 1) throw new Error('--iterations must be a positive integer')
  if (!Number.isInteger(seed) || seed < 0) throw new Error('--seed must be a non-negative integer')
  console.log(`soak: ${iterations} iterations, seed ${seed}`)
  const report = await runSoak({ iterations, seed, log: (line) => console.log(line) })
  console.log(formatReport(report))
  const failed = report.doublePayments.length + report.lostPayouts.length + report.disagreements.length > 0
  process.exit(failed ? 1 : 0)
}

main().catch((error: unknown) => {
  console.error(`soak: ${(error as Error).stack ?? String(error)}`)
  process.exit(2)
})
