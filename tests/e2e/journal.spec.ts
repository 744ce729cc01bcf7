/**
 * The journal as the user sees it: Settings shows where it is and Verify finds a changed record;
 * what start-up reconciliation found is shown once and stays in Settings; a second copy of the app
 * on the same user data says the journal is in use and sends nothing.
 */
import { createHash } from 'node:crypto'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { startBridgeApp } from '../../electron/main/bridge-app'
import { openJournal } from '../../electron/main/services/journal/journal'
import type { NewIntent } from '../../electron/main/services/journal/journal'
import { test, expect } from './fixtures'

// Each test starts one or two bridges with their simulators: allow for a busy machine.
test.describe.configure({ timeout: 180_000 })

const STATIC_DIR = resolve(__dirname, '../../out/renderer')

function payoutIntent(reference: string, amount: string): NewIntent {
  return {
    reference,
    kind: 'payout',
    profileId: 'sandbox',
    mode: 'sandbox',
    request: {
      reference,
      destination: {
        type: 'bank_account',
        amount,
        currency: 'NGN',
        bank_account: { bank: '044', account: '0123456789' },
        customer: { email: 'ada@example.com' },
      },
    },
  }
}

test('Verify says the journal is intact, then names the record changed in the file', async ({ app }) => {
  const { page } = app
  const journal = app.running.services.journal
  await journal.record(payoutIntent('e2e-verify-1', '1500.50'))
  await journal.append('e2e-verify-1', { state: 'failed', note: 'Refused by the payments service' })
  await journal.record(payoutIntent('e2e-verify-2', '2500.00'))

  await page.getByTestId('nav-settings').click()
  const section = page.getByTestId('journal-settings')
  await expect(section.getByTestId('journal-path')).toHaveText(join(app.userDataDir, 'journal', 'journal.jsonl'))
  await expect(section.getByTestId('journal-records')).toHaveText('3')
  await section.getByTestId('journal-verify').click()
  await expect(section.getByTestId('journal-verify-ok')).toContainText('All 3 records are as they were written')

  const file = join(app.userDataDir, 'journal', 'journal.jsonl')
  const text = await readFile(file, 'utf8')
  await writeFile(file, text.replace('"amount":"2500.00"', '"amount":"9500.00"'))
  const third = JSON.parse(text.trim().split('\n')[2]!) as { at: string }

  await section.getByTestId('journal-verify').click()
  const broken = section.getByTestId('journal-verify-broken')
  await expect(broken).toBeVisible()
  await expect(section.getByTestId('journal-verify-ok')).toHaveCount(0)
  await expect(broken.getByTestId('journal-broken-record')).toHaveText('record 3')
  await expect(broken.getByTestId('journal-broken-at')).toHaveAttribute('datetime', third.at)
  await expect(broken.getByTestId('journal-broken-reason')).toContainText('changed after it was written')
  await expect(broken).toContainText('The 2 records before it are intact')
  await app.screenshot('journal-verify-broken')
})

test('an offline edit that recomputes every hash of the chain still fails Verify, naming the record', async ({
  app,
}) => {
  const { page } = app
  const journal = app.running.services.journal
  await journal.record(payoutIntent('e2e-seal-1', '1500.50'))
  await journal.append('e2e-seal-1', { state: 'failed', note: 'Refused by the payments service' })
  await journal.record(payoutIntent('e2e-seal-2', '2500.00'))
  await page.getByTestId('nav-settings').click()
  const section = page.getByTestId('journal-settings')
  await section.getByTestId('journal-verify').click()
  await expect(section.getByTestId('journal-verify-ok')).toContainText('All 3 records are as they were written')
  // Sealed from its first record (decision 107): nothing to add to an intact answer.
  await expect(section.getByTestId('journal-seal-note')).toHaveCount(0)

  // 2,500.00 becomes 9,500.00, and every hash and link after it is recomputed, as the file allows.
  const file = join(app.userDataDir, 'journal', 'journal.jsonl')
  const lines = (await readFile(file, 'utf8')).trim().split('\n')
  let prev = '0'.repeat(64)
  const rewritten = lines.map((line) => {
    const {
      hash: _hash,
      mac,
      ...record
    } = JSON.parse(line.replace('"amount":"2500.00"', '"amount":"9500.00"')) as Record<string, unknown>
    record['prev'] = prev
    prev = createHash('sha256').update(JSON.stringify(record)).digest('hex')
    return JSON.stringify({ ...record, hash: prev, mac })
  })
  await writeFile(file, `${rewritten.join('\n')}\n`)

  await section.getByTestId('journal-verify').click()
  const broken = section.getByTestId('journal-verify-broken')
  await expect(broken.getByTestId('journal-broken-record')).toHaveText('record 3')
  await expect(broken.getByTestId('journal-broken-reason')).toContainText(
    "its seal does not match this desk's key: it was changed after it was written, and the hashes recomputed to hide it",
  )
  await expect(broken).toContainText('The 2 records before it are intact')
})

test('a second copy on the same user data says the journal is in use and cannot send', async ({ app, browser }) => {
  await expect(app.page.getByTestId('journal-in-use')).toHaveCount(0)
  const second = await startBridgeApp({ userDataDir: app.userDataDir, staticDir: STATIC_DIR, sandboxSettleMs: 300 })
  const context = await browser.newContext()
  try {
    const page = await context.newPage()
    await page.goto(second.bridge.appUrl)
    const notice = page.getByTestId('journal-in-use')
    await expect(notice).toBeVisible()
    await expect(notice).toHaveAttribute('role', 'alert')
    await expect(notice).toContainText('The journal is in use by another copy of Payout Desk')
    await expect(notice).toContainText('Nothing can be sent from this copy')
    // It stays on every screen.
    await page.getByTestId('nav-settings').click()
    await expect(notice).toBeVisible()
    await expect(page.getByTestId('journal-writable')).toHaveText('cannot write: another copy holds the journal')
    await expect(page.getByTestId('journal-verify')).toBeDisabled()
    await page.getByTestId('nav-history').click()
    await expect(notice).toBeVisible()
    await page.screenshot({ path: join(__dirname, 'screenshots', 'journal-in-use.png'), fullPage: true })
    // And main refuses to journal anything, so nothing can leave.
    await expect(second.services.journal.record(payoutIntent('e2e-second-copy', '10.00'))).rejects.toThrow(
      /in use by another copy/,
    )
  } finally {
    await context.close()
    await second.close()
  }
  // The first copy was never disturbed.
  await app.running.services.journal.record(payoutIntent('e2e-first-copy', '10.00'))
})

test('what start-up reconciliation found is shown once, and again in Settings', async ({ browser }) => {
  const userDataDir = await mkdtemp(join(tmpdir(), 'payout-desk-e2e-reconcile-'))
  // A previous run left a payout recorded but never sent (the app stopped before the request left).
  const before = await openJournal(join(userDataDir, 'journal'))
  await before.record(payoutIntent('e2e-left-open', '700.00'))
  await before.close()

  const running = await startBridgeApp({ userDataDir, staticDir: STATIC_DIR, sandboxSettleMs: 300 })
  const context = await browser.newContext()
  try {
    const page = await context.newPage()
    await page.emulateMedia({ reducedMotion: 'reduce' })
    await page.goto(running.bridge.appUrl)
    const notice = page.getByTestId('reconciliation-notice')
    await expect(notice).toBeVisible()
    const row = notice.locator('tr[data-reference="e2e-left-open"]')
    await expect(row.getByTestId('reconciliation-change')).toHaveText(/recorded\s*→\s*unknown/)
    await expect(row).toContainText('The payments service has no payout with this reference')
    await expect(notice).toContainText('Nothing was sent again')
    await expect(notice).toContainText('The service never received payout e2e-left-open: you may send it again')
    await expect(row.getByTestId('reconciliation-follow-up')).toHaveText(
      'You may send it again, with the same reference.',
    )
    await page.screenshot({ path: join(__dirname, 'screenshots', 'reconciliation-notice.png'), fullPage: true })

    await notice.getByRole('button', { name: /close/i }).click()
    await expect(notice).toHaveCount(0)
    await page.reload()
    await expect(page.getByTestId('page-heading')).toBeVisible()
    await expect(page.getByTestId('reconciliation-notice')).toHaveCount(0)

    await page.getByTestId('nav-settings').click()
    const settings = page.getByTestId('journal-settings')
    await expect(settings.getByTestId('reconciliation-summary')).toContainText('1 movement was left open')
    await expect(
      settings.locator('tr[data-reference="e2e-left-open"]').getByTestId('reconciliation-change'),
    ).toHaveText(/recorded\s*→\s*unknown/)
  } finally {
    await context.close()
    await running.close()
    await rm(userDataDir, { recursive: true, force: true })
  }
})

test('a torn last record found on open is shown with the file it was moved to', async ({ browser }) => {
  const userDataDir = await mkdtemp(join(tmpdir(), 'payout-desk-e2e-torn-'))
  const before = await openJournal(join(userDataDir, 'journal'))
  await before.record(payoutIntent('e2e-intact', '10.00'))
  await before.append('e2e-intact', { state: 'failed', note: 'Refused' })
  await before.close()
  await writeFile(join(userDataDir, 'journal', 'journal.jsonl'), '{"seq":3,"at":"2026-', { flag: 'a' })

  const running = await startBridgeApp({ userDataDir, staticDir: STATIC_DIR, sandboxSettleMs: 300 })
  const context = await browser.newContext()
  try {
    const page = await context.newPage()
    await page.goto(running.bridge.appUrl)
    const file = running.services.journal.status.setAside!.file
    await expect(page.getByTestId('journal-torn-notice')).toContainText(file)
    await page.getByTestId('nav-settings').click()
    await expect(page.getByTestId('journal-set-aside-file')).toHaveText(file)
    await expect(page.getByTestId('journal-records')).toHaveText('2')
    await page.getByTestId('journal-verify').click()
    await expect(page.getByTestId('journal-verify-ok')).toContainText('All 2 records')
  } finally {
    await context.close()
    await running.close()
    await rm(userDataDir, { recursive: true, force: true })
  }
})
