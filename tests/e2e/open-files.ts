/**
 * Files handed to the app the way that works on every transport: written to disk and chosen with
 * Open (the dialog stand-in answers with the path), never carried as bytes over IPC.
 */
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { BulkOpened } from '../../shared/ipc/channels/bulk'
import type { IdentityImagePreview } from '../../shared/domain/cards'
import { needsNameAcknowledgement } from '../../shared/domain/bulk-run'
import type { AppFixture } from './fixtures'

/** A payout sheet opened in Bulk payouts, as main inspected it. */
export async function openSheet(app: AppFixture, name: string, content: string): Promise<BulkOpened> {
  const path = join(app.userDataDir, name)
  await writeFile(path, content)
  app.running.desktop.queueOpenPath(path)
  const opened = await app.running.services.handlers['bulk:open'](undefined)
  if (!opened) throw new Error(`${name} was not opened`)
  return opened
}

/** A sheet opened, imported with what main found and put in review: the run's id. */
export async function runInReview(app: AppFixture, name: string, content: string): Promise<string> {
  const { handlers } = app.running.services
  const opened = await openSheet(app, name, content)
  const sheet = opened.summary.sheets[0]!
  const answer = await handlers['bulk:import']({
    importId: opened.importId,
    sheet: sheet.name,
    headerRow: sheet.headerRow!,
    mapping: [...sheet.mapping!],
    currency: 'NGN',
  })
  if (answer.kind !== 'run') throw new Error(`The sheet stopped at its ${answer.kind} step`)
  const view = answer.run
  await handlers['bulk:review']({ runId: view.id })
  return view.id
}

/**
 * What the review asks before Send, done: every name checked (until the run is back in review),
 * the no-match names acknowledged; then Send (decision 50). The run's id.
 */
export async function checkNamesAndSend(app: AppFixture, runId: string): Promise<string> {
  const { handlers } = app.running.services
  await handlers['bulk:resolve']({ runId })
  for (const started = Date.now(); (await handlers['bulk:run']({ runId })).stage !== 'review';) {
    if (Date.now() - started > 60_000) throw new Error(`The name checks of run ${runId} did not end`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  const indexes = (await handlers['bulk:rows']({ runId })).filter(needsNameAcknowledgement).map((row) => row.index)
  if (indexes.length > 0) await handlers['bulk:acknowledgeNames']({ runId, indexes })
  await handlers['bulk:submit']({ runId })
  return runId
}

/** An identity document chosen for a cardholder, held by main. */
export async function chooseIdentity(app: AppFixture, name: string, bytes: Buffer): Promise<IdentityImagePreview> {
  const path = join(app.userDataDir, name)
  await writeFile(path, bytes)
  app.running.desktop.queueOpenPath(path)
  const preview = await app.running.services.handlers['cards:chooseIdentityFile'](undefined)
  if (!preview) throw new Error(`${name} was not chosen`)
  return preview
}

/**
 * A CSV payout sheet imported on the Bulk payouts screen as a person does it (Open, then Import
 * with what the desk found), from the runs list: its run is open once its first rows are shown.
 */
export async function importOnScreen(app: AppFixture, name: string, content: string): Promise<void> {
  const { page } = app
  const path = join(app.userDataDir, name)
  await writeFile(path, content)
  await page.getByTestId('nav-bulk').click()
  app.running.desktop.queueOpenPath(path)
  await page.getByTestId('bulk-open-file').click()
  await page.getByTestId('bulk-import-confirm').click({ timeout: 60_000 })
  await page.getByTestId('bulk-row-2').waitFor({ timeout: 60_000 })
}
