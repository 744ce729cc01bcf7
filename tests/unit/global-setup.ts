/**
 * The unit-test run's scan root: every temporary folder a test makes (os.tmpdir() points here for
 * every worker and the processes they start) and everything a test removes (moved aside by
 * tests/scan/keep-removed.ts) is kept until the run ends, then scanned for every test key, card
 * number, CVV, PIN and OTP (tests/scan/final-scan.ts); a finding fails the run. Then it is removed.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SCAN_ROOT_ENV } from '../scan/keep-removed'
import { finalScan, report } from '../scan/final-scan'
import { prepareChildBundles } from '../support/child-bundles'

/** Set once per Vitest process: each project (vitest.config.ts) runs the global set-up again. */
const RUN = Symbol.for('payout-desk.unit-run')

export default function setup(): () => Promise<void> {
  const run = globalThis as { [RUN]?: true }
  if (run[RUN]) return async () => {}
  run[RUN] = true
  const realTmp = tmpdir()
  const root = mkdtempSync(join(realTmp, 'payout-desk-unit-run-'))
  process.env[SCAN_ROOT_ENV] = root
  process.env['PAYOUT_DESK_REAL_TMPDIR'] = realTmp
  // Test input (the hostile corpus) is built outside the scan root, in a folder of this run's own:
  // several runs on one machine never remove each other's input.
  const input = mkdtempSync(join(realTmp, 'payout-desk-unit-input-'))
  process.env['PAYOUT_DESK_TEST_INPUT'] = input
  process.env['TMPDIR'] = root
  // The processes the tests start run from bundles made once for the run (decision 133).
  const bundles = prepareChildBundles()
  return async () => {
    rmSync(bundles, { recursive: true, force: true })
    process.env['TMPDIR'] = realTmp
    try {
      const { files, findings } = await finalScan(root)
      if (findings.length > 0) {
        // A teardown's error alone does not fail a vitest run: say so, and set the exit code.
        process.exitCode = 1
        throw new Error(report(findings, root))
      }
      console.log(`Secret scan: ${files} files the unit tests wrote hold no key, card number, CVV, PIN or OTP.`)
    } finally {
      if (!process.env['PAYOUT_DESK_KEEP_SCAN_ROOT']) rmSync(root, { recursive: true, force: true })
      // The hostile corpus (tests/unit/hostile/hostile-corpus.ts) is built outside the root: test input.
      rmSync(input, { recursive: true, force: true })
    }
  }
}
