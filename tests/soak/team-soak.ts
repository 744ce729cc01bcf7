/**
 * The team soak from the command line:
 *
 *   node --import tsx tests/soak/team-soak.ts [--releases 40] [--seed 1] [--desks 3] [--lease 4]
 *
 * starts its own PostgreSQL server (tests/support/postgres.ts) and Sandbox, prints each release as
 * it finishes and then the verdict, and exits 1 when a release never finished, a row was not paid
 * exactly once, or a desk's copy, the team's records or its payment memory disagree with the Sandbox.
 */
import { parseArgs } from 'node:util'
import { formatTeamReport, runTeamSoak, teamSoakFailures } from './team-soak-run'

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      releases: { type: 'string', default: '20' },
      seed: { type: 'string', default: String(Date.now() % 100_000) },
      desks: { type: 'string', default: '3' },
      lease: { type: 'string', default: '4' },
    },
  })
  const releases = Number(values.releases)
  const seed = Number(values.seed)
  const desks = Number(values.desks)
  const leaseSeconds = Number(values.lease)
  if (!Number.isInteger(releases) || releases < 1) throw new Error('--releases must be a positive integer')
  if (!Number.isInteger(seed) || seed < 0) throw new Error('--seed must be a non-negative integer')
  if (!Number.isInteger(desks) || desks < 2) throw new Error('--desks must be 2 or more')
  if (!Number.isInteger(leaseSeconds) || leaseSeconds < 2) throw new Error('--lease must be 2 seconds or more')
  console.log(`team soak: ${releases} releases, ${desks} desks, lease ${leaseSeconds} s, seed ${seed}`)
  const report = await runTeamSoak({
    seed,
    releases,
    desks,
    leaseSeconds,
    minKills: releases,
    log: (line) => console.log(line),
  })
  console.log(formatTeamReport(report))
  const failures = teamSoakFailures(report)
  if (failures.length) console.log(`FAILED: ${failures.join('; ')}`)
  process.exit(failures.length ? 1 : 0)
}

main().catch((error: unknown) => {
  console.error(`team soak: ${(error as Error).stack ?? String(error)}`)
  process.exit(2)
})
