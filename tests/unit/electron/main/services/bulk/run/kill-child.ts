/**
 * A process that does one bulk action and is SIGKILLed inside it, at the checkpoint KILL_AT
 * (electron/main/services/checkpoints.ts): ACTION=retry retries the failed rows of RUN_ID; ACTION=
 * import creates a run from a generated sheet of ROWS rows; ACTION=send creates one and sends it;
 * ACTION=confirm creates one whose row 1 is held for a changed account and confirms it. It prints `KILLED <checkpoint>` just
 * before it dies, or `DONE <run id>` if the checkpoint was never reached.
 * Run with `node --import tsx kill-child.ts`.
 */
import { writeSync } from 'node:fs'
import { csvBytes, openHarness, sheetOf } from './harness'
import type { Tripwire } from '../../../../../../../shared/payees/tripwires'

const CHANGED_ACCOUNT: Tripwire = {
  kind: 'account_changed',
  account: '044 1000000007',
  lastAccounts: ['044 2000000001'],
  lastPaidAt: '2026-10-31T10:00:00.000Z',
  identifiedBy: 'id',
}

const env = (name: string): string => {
  const value = process.env[name]
  if (!value) throw new Error(`${name} is required`)
  return value
}

async function main(): Promise<void> {
  const killAt = env('KILL_AT')
  const harness = await openHarness({
    userDataDir: env('USER_DATA'),
    sandboxUrl: env('SANDBOX_URL'),
    secretKey: env('SANDBOX_KEY'),
    checkpoint: (point) => {
      if (point !== killAt) return
      writeSync(1, `KILLED ${point}\n`)
      process.kill(process.pid, 'SIGKILL')
    },
  })
  await harness.reconciler.run()
  await harness.service.resumeAll()
  let view
  if (env('ACTION') === 'retry') view = await harness.service.retryFailed(env('RUN_ID'))
  else if (env('ACTION') === 'confirm') {
    // A run whose row 1 is held for a changed account (decision 124), confirmed in person.
    const sheet = sheetOf(Number(env('ROWS')), new Set(), 'CONF')
    view = await harness.service.create({ result: sheet, bytes: csvBytes(sheet), currency: 'NGN' })
    await harness.service.setTripwires(view.id, [{ index: 1, tripwires: [CHANGED_ACCOUNT], payeeKey: 'id:e2' }])
    await harness.service.toReview(view.id)
    view = await harness.service.confirmPayee(view.id, 1, { method: 'in_person', note: 'Met at the office' })
  } else if (env('ACTION') === 'send') {
    const sheet = sheetOf(Number(env('ROWS')), new Set(), 'SEND')
    view = await harness.service.create({ result: sheet, bytes: csvBytes(sheet), currency: 'NGN' })
    await harness.service.toReview(view.id)
    await harness.service.submit(view.id)
    await harness.service.idle()
  } else {
    const sheet = sheetOf(Number(env('ROWS')), new Set(), 'IMPORT')
    view = await harness.service.create({ result: sheet, bytes: csvBytes(sheet), currency: 'NGN' })
  }
  await harness.close()
  writeSync(1, `DONE ${view.id}\n`)
}

main().catch((error: unknown) => {
  process.stderr.write(`kill-child failed: ${(error as Error).stack ?? String(error)}\n`)
  process.exit(1)
})
