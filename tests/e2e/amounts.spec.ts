/**
 * Every amount the app shows has thousands separators and its currency, the same way on every
 * screen (decision 35): shared/money.ts formatMoney. Checked where the figures come
 * from the service (History: amount, fee, totals) and from a file (the offline review of the
 * exported history), with an amount large enough to need the separators.
 */
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from './fixtures'
import { formatMoney } from '../../shared/money'

test('history and its offline review show 250,000.00 NGN the one way, with the fee and the totals', async ({ app }) => {
  const { page } = app
  const { secretKey } = await app.running.services.profiles.credentialsOf('sandbox')
  const response = await fetch(`${app.sandboxUrl}/merchant/api/v1/transactions/disburse`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      reference: 'amounts-e2e-1',
      destination: {
        type: 'bank_account',
        amount: 250000,
        currency: 'NGN',
        narration: 'Quarterly rent',
        bank_account: { bank: '044', account: '0123456789' },
        customer: { name: 'Ada Obi', email: 'ada@example.com' },
      },
    }),
  })
  expect(response.status).toBe(200)
  // The format the whole app uses, so this test follows the one helper rather than restating it.
  expect(formatMoney('250000', 'NGN')).toBe('250,000.00 NGN')

  await page.getByTestId('nav-history').click()
  await page.getByTestId('history-load-all').click()
  const row = page.getByTestId('history-row').filter({ hasText: 'amounts-e2e-1' })
  await expect(row).toContainText('250,000.00 NGN')
  // The Sandbox's fee: 1% capped at 1,000.00.
  await expect(row).toContainText('1,000.00 NGN')
  await expect(page.getByTestId('history-total-amount')).toHaveText(['250,000.00 NGN'])

  const dir = await mkdtemp(join(tmpdir(), 'amounts-e2e-'))
  const csvPath = join(dir, 'history.csv')
  app.running.desktop.queueSavePath(csvPath)
  await page.getByTestId('history-export-csv').click()
  await expect(page.getByTestId('history-export-saved')).toHaveText(`Saved 1 row to ${csvPath}`)
  app.running.desktop.queueOpenPath(csvPath)
  await page.getByTestId('history-open').click()
  await expect(page.getByTestId('history-offline')).toContainText('Offline review: history.csv')
  await expect(page.getByTestId('history-row')).toContainText('250,000.00 NGN')
  await expect(page.getByTestId('history-total-amount')).toHaveText(['250,000.00 NGN'])
})
