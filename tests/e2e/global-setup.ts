/**
 * The Playwright run's scan root: every user-data folder and scratch folder the tests make
 * (os.tmpdir() points here for every worker) and everything they remove (kept aside by
 * tests/scan/keep-removed.ts, installed by the fixture) stays until the run ends, when
 * global-teardown.ts scans it all for secrets.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SCAN_ROOT_ENV } from '../scan/keep-removed'
import { prepareChildBundles } from '../support/child-bundles'

export default function globalSetup(): void {
  const realTmp = tmpdir()
  const root = mkdtempSync(join(realTmp, 'payout-desk-e2e-run-'))
  process.env[SCAN_ROOT_ENV] = root
  process.env['PAYOUT_DESK_REAL_TMPDIR'] = realTmp
  process.env['TMPDIR'] = root
  // The team desks the team specs start run from a bundle made once for the run (decision 133).
  prepareChildBundles()
}
