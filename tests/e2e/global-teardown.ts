/**
 * After the whole Playwright run: every file the app wrote in any test (journal, settings, logs,
 * exports, reports, evidence packs, the user-data folders and the scratch folders, kept or removed)
 * is scanned for every test key, every PAN and CVV the simulators issued, any card number by
 * pattern, and the test cards' PIN and OTP. One finding fails the run.
 */
import { rmSync } from 'node:fs'
import { finalScan, report } from '../scan/final-scan'
import { SCAN_ROOT_ENV } from '../scan/keep-removed'
import { CHILD_BUNDLES_ENV } from '../support/child-bundles'

export default async function globalTeardown(): Promise<void> {
  const bundles = process.env[CHILD_BUNDLES_ENV]
  if (bundles) rmSync(bundles, { recursive: true, force: true })
  const root = process.env[SCAN_ROOT_ENV]
  if (!root) return
  try {
    const { files, findings } = await finalScan(root)
    if (findings.length > 0) throw new Error(report(findings, root))
    console.log(`Secret scan: ${files} files the e2e tests wrote hold no key, card number, CVV, PIN or OTP.`)
  } finally {
    if (!process.env['PAYOUT_DESK_KEEP_SCAN_ROOT']) rmSync(root, { recursive: true, force: true })
  }
}
