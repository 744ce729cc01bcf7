/**
 * Month-end sheets as they come (decisions 53 to 57), through the bridge in Chromium as a person
 * works them: a payroll without e-mail and narration columns imported with one e-mail and one
 * narration for the whole run (shown in the evidence pack, the e-mail proposed again next time); a
 * Kenyan payroll from a payroll system (tests/fixtures/sheets/kenya-payroll.xlsx) read as KES, its
 * number-cell accounts flagged and the ones that need it confirmed; a genuine second invoice asked
 * about instead of left out, and listed with its money beside the control total once left out; the
 * column-mapping page within 1280 px; no "Please Input" anywhere.
 */
import { copyFile, readFile, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { strFromU8, unzipSync } from 'fflate'
import type { Page } from '@playwright/test'
import { seriousViolations } from './axe'
import { expect, test, type AppFixture } from './fixtures'

test.setTimeout(180_000)

const SHEETS = resolve(__dirname, '../fixtures/sheets')

async function openSheet(app: AppFixture, path: string): Promise<Page> {
  const { page } = app
  await page.getByTestId('nav-bulk').click()
  app.running.desktop.queueOpenPath(path)
  await page.getByTestId('bulk-open-file').click()
  // The file is read in a worker (from source under the bridge: several seconds on a busy machine).
  await expect(page.getByTestId('bulk-import-steps')).toBeVisible({ timeout: 60_000 })
  return page
}

// The Sandbox's documented test accounts (their name checks match), NG codes, no e-mail or narration column.
const PAYROLL = [
  'Staff payroll,,,',
  'Employee,Bank Code,Account Number,Net Pay',
  'Adaeze Okafor,058,0690000031,"150,000.00"',
  'Tunde Adeyemi,044,0690000032,"120,500.00"',
  'Chinedu Nwosu,033,0690000033,"98,750.50"',
].join('\r\n')

test('a payroll without e-mail and narration columns imports with run-wide values, shown in the evidence pack', async ({
  app,
}) => {
  const path = join(app.userDataDir, 'payroll-march.csv')
  await writeFile(path, PAYROLL)
  const page = await openSheet(app, path)

  // No column holds them: the step says so and asks for one value each; Import waits for them.
  await expect(page.getByTestId('bulk-missing-fields')).toContainText('Customer e-mail, Narration')
  await expect(page.getByTestId('bulk-run-wide-customer_email-hint')).toContainText('No column holds the e-mail')
  await expect(page.getByTestId('bulk-import-confirm')).toBeDisabled()
  const email = page.getByTestId('bulk-run-wide-customer_email').locator('input')
  await email.fill('accounts-at-acme')
  await expect(page.getByTestId('bulk-run-wide-customer_email-problem')).toHaveText(
    'The e-mail for the whole run, "accounts-at-acme", is not a valid e-mail address.',
  )
  expect(await seriousViolations(page, '[data-testid="bulk-import-steps"]')).toEqual([])
  await email.fill('accounts@acme.ng')
  await page.getByTestId('bulk-run-wide-narration').locator('input').fill('March salaries')
  await expect(page.getByTestId('bulk-missing-fields')).toHaveCount(0)
  await expect(page.getByTestId('bulk-run-wide-customer_email-problem')).toHaveCount(0)
  await page.getByTestId('bulk-import-confirm').click()

  // Every row carries them; nothing is in error.
  await expect(page.getByTestId('bulk-grid')).toBeVisible({ timeout: 60_000 })
  await expect(page.getByTestId('bulk-count-errors')).toHaveText('0')
  for (const row of [3, 4, 5]) {
    await expect(page.getByTestId(`bulk-row-${row}`).locator('[data-field="customer_email"]')).toHaveText(
      'accounts@acme.ng',
    )
    await expect(page.getByTestId(`bulk-row-${row}`).locator('[data-field="narration"]')).toHaveText('March salaries')
  }

  // Checked, reviewed; the evidence pack records the values given for the whole run.
  await page.getByTestId('bulk-resolve').click()
  await expect(page.getByTestId('bulk-review')).toBeVisible({ timeout: 60_000 })
  const zipPath = join(app.userDataDir, 'evidence.zip')
  app.running.desktop.queueSavePath(zipPath)
  await page.getByTestId('bulk-export-evidence').click()
  await expect(page.getByTestId('bulk-saved-to')).toContainText('evidence.zip')
  const zip = unzipSync(new Uint8Array(await readFile(zipPath)))
  const recorded = {
    customer_email: { value: 'accounts@acme.ng', rows: 3 },
    narration: { value: 'March salaries', rows: 3 },
  }
  expect(JSON.parse(strFromU8(zip['mapping.json']!)).run_wide).toEqual(recorded)
  expect(JSON.parse(strFromU8(zip['run.json']!)).imported.run_wide).toEqual(recorded)
  const rows = JSON.parse(strFromU8(zip['rows.json']!)) as Array<{ item: { customer_email: string } }>
  expect(rows.map((row) => row.item.customer_email)).toEqual([
    'accounts@acme.ng',
    'accounts@acme.ng',
    'accounts@acme.ng',
  ])

  // Next month's sheet: the e-mail is proposed again for this profile; the narration is not.
  await page.getByTestId('bulk-back').click()
  const april = join(app.userDataDir, 'payroll-april.csv')
  await writeFile(april, PAYROLL)
  await openSheet(app, april)
  await expect(page.getByTestId('bulk-run-wide-customer_email').locator('input')).toHaveValue('accounts@acme.ng')
  await expect(page.getByTestId('bulk-run-wide-narration').locator('input')).toHaveValue('')
})

test('a Kenyan payroll is read as KES, and its number-cell accounts are flagged: refused where a digit is gone, confirmed otherwise', async ({
  app,
}) => {
  const path = join(app.userDataDir, 'payroll-register.xlsx')
  await copyFile(join(SHEETS, 'kenya-payroll.xlsx'), path)
  const page = await openSheet(app, path)

  // The sheet says KES ("Currency: KES", Kenyan banks): proposed, with why.
  await expect(page.getByTestId('bulk-currency-KES')).toHaveClass(/n-radio-button--checked/)
  await expect(page.getByTestId('bulk-currency-guess')).toContainText('a cell says "Currency: KES" (row 3)')
  await page.getByTestId('bulk-run-wide-customer_email').locator('input').fill('payroll@savanna.co.ke')
  await page.getByTestId('bulk-run-wide-narration').locator('input').fill('March salaries')
  await page.getByTestId('bulk-import-confirm').click()

  // Kenyan banks, "Stanbic" the Kenyan Stanbic.
  const step = page.getByTestId('bulk-bank-matches')
  await expect(step).toBeVisible({ timeout: 60_000 })
  await expect(step.getByTestId('bulk-bank-line')).toContainText(['Stanbic → Stanbic Bank Kenya (31), 1 row'])
  await page.getByTestId('bulk-banks-accept-all').click()
  await page.getByTestId('bulk-banks-confirm').click()
  await expect(page.getByTestId('bulk-grid')).toBeVisible({ timeout: 60_000 })

  // 170546876558 (Equity's 0170546876558 in a number cell) is refused with the cause.
  const equity = page.getByTestId('bulk-row-6')
  await expect(equity.locator('[data-field="problems"]')).toContainText(
    'Account number 170546876558 came from a number cell and has 12 digits; Equity Bank Kenya account numbers have 13: a leading zero was lost.',
  )
  // KCB's ten digits lost nothing that shows: asked, and confirmed by a person.
  const questions = page.getByTestId('bulk-questions-accounts')
  await expect(questions).toContainText('1 account number came from number cells')
  await expect(page.getByTestId('bulk-question-account-7')).toContainText('1102345678')
  await expect(page.getByTestId('bulk-count-errors')).toHaveText('3')
  expect(await seriousViolations(page, '[data-testid="bulk-questions"]')).toEqual([])
  await page.getByTestId('bulk-confirm-accounts').click()
  await expect(page.getByTestId('bulk-questions')).toHaveCount(0)
  await expect(page.getByTestId('bulk-count-errors')).toHaveText('2')

  // The refused one is typed again as text: its error goes.
  await equity.locator('[data-field="account_number"]').click()
  await page.keyboard.press('Enter')
  await page.getByTestId('bulk-cell-editor').fill('0170546876558')
  await page.getByTestId('bulk-cell-editor').press('Enter')
  await expect(page.getByTestId('bulk-count-errors')).toHaveText('1')
})

const INVOICES = [
  'reference,amount,bank_code,account_number,customer_name,customer_email,narration',
  'INV-2033,"250,000.00",058,0690000031,Adaeze Okafor,ap@chukwuma.ng,"Stationery, March"',
  'INV-7781,"120,500.00",044,0690000032,Tunde Adeyemi,ap@fleet.ng,Vehicle maintenance',
  'INV-2041,"250,000.00",058,0690000031,Adaeze Okafor,ap@chukwuma.ng,"Printer toner, March"',
  'INV-2042,"250,000.00",058,0690000031,Adaeze Okafor,ap@chukwuma.ng,"Paper, March"',
  'TOTAL,"870,500.00",,,,,',
].join('\r\n')

test('a genuine second invoice is asked about, not left out; left out by a person, it is listed with its money beside the control total', async ({
  app,
}) => {
  const path = join(app.userDataDir, 'vendors-march.csv')
  await writeFile(path, INVOICES)
  const page = await openSheet(app, path)
  await page.getByTestId('bulk-import-confirm').click()
  await expect(page.getByTestId('bulk-grid')).toBeVisible({ timeout: 60_000 })

  // Nothing is left out by itself; both later invoices are asked about, with the money involved.
  await expect(page.getByTestId('bulk-count-excluded')).toHaveText('0')
  const asked = page.getByTestId('bulk-questions-payments')
  await expect(asked).toContainText('2 rows pay an account the same amount as an earlier row')
  await expect(asked).toContainText('500,000.00 NGN in all')
  await expect(page.getByTestId('bulk-question-payment-4')).toContainText(
    'Pays 250,000.00 NGN to the same account (bank 058, account 0690000031) as row 2',
  )
  expect(await seriousViolations(page, '[data-testid="bulk-questions"]')).toEqual([])
  await page.getByTestId('bulk-pay-both-4').click()
  await expect(page.getByTestId('bulk-question-payment-4')).toHaveCount(0)
  await page.getByTestId('bulk-leave-out-5').click()
  await expect(page.getByTestId('bulk-count-excluded')).toHaveText('1')
  await expect(page.getByTestId('bulk-questions')).toHaveCount(0)

  // Beside the control total: the sheet's total row, and the row a person left out, with its amount.
  await expect(page.getByTestId('bulk-control-total-check')).toContainText(
    "Your sheet's total 870,500.00 NGN matches the 4 payout rows.",
  )
  await expect(page.getByTestId('bulk-skipped-rows')).toContainText(
    "Left out of the run: row 5 (left out by hand: 250,000.00 NGN), row 6 (the sheet's total).",
  )
  await expect(page.getByTestId('bulk-left-out-money')).toHaveText(
    '1 payout row of the sheet, 250,000.00 NGN, is not paid in this run.',
  )
  await page.getByTestId('bulk-resolve').click()
  await expect(page.getByTestId('bulk-review')).toBeVisible({ timeout: 60_000 })
  await expect(page.getByTestId('bulk-review').getByTestId('bulk-skipped-rows')).toContainText(
    'row 5 (left out by hand: 250,000.00 NGN)',
  )
  await expect(page.getByTestId('bulk-review-total')).toHaveText('620,500.00 NGN')

  // Find and replace finds a space.
  await page.getByTestId('bulk-replace').locator('summary').click()
  await page.getByTestId('bulk-replace-column').selectOption('narration')
  await page.getByTestId('bulk-replace-find').fill(' ')
  await page.getByTestId('bulk-replace-with').fill('_')
  await expect(page.getByTestId('bulk-replace-preview')).toHaveText('Finding a space: 4 cells will change.')
})

test('the column-mapping page stays within 1280 px, whatever the sheet holds', async ({ app }) => {
  await app.page.setViewportSize({ width: 1280, height: 720 })
  const path = join(app.userDataDir, 'vendor-payments.xlsx')
  await copyFile(join(SHEETS, 'vendor-payments-ng.xlsx'), path)
  const wide = join(app.userDataDir, 'wide-export.csv')
  const long = 'Quarterly maintenance of the standby generators at the Ikeja, Lekki and Abuja offices, invoice'
  await writeFile(
    wide,
    [
      'Vendor,Vendor Bank,Account No.,Amount,Description,Cost centre,Project,Approver,Approval note',
      ...[1, 2, 3].map(
        (n) =>
          `Vendor ${n} Nigeria Limited,Guaranty Trust Bank,069000003${n},"1,000.00",${long} ${n},Facilities and administration,PRJ-2026-0${n},Adaeze Okafor (Finance Manager),Approved against the signed purchase order ${n}`,
      ),
    ].join('\r\n'),
  )
  for (const sheet of [path, wide]) {
    const page = await openSheet(app, sheet)
    const sideways = await page.evaluate(() => {
      const root = document.scrollingElement ?? document.documentElement
      // What shows on the page itself: a table scrolling in its own box may be wider than the box.
      const inOwnBox = (element: Element): boolean => {
        for (let up = element.parentElement; up && up !== document.body; up = up.parentElement)
          if (getComputedStyle(up).overflowX !== 'visible') return true
        return false
      }
      const steps = document.querySelector('[data-testid="bulk-import-steps"]')!
      const widest = Array.from(steps.querySelectorAll('*'))
        .filter((element) => !inOwnBox(element))
        .reduce((most, element) => Math.max(most, element.getBoundingClientRect().right), 0)
      return { scroll: root.scrollWidth - root.clientWidth, widest: Math.round(widest), window: window.innerWidth }
    })
    expect(sideways.scroll, `${sheet}: the page scrolls sideways`).toBeLessThanOrEqual(0)
    expect(sideways.widest, `${sheet}: something reaches past the window`).toBeLessThanOrEqual(sideways.window)
    await page.getByTestId('bulk-import-cancel').click()
  }
})

test('no field shows naive-ui\'s "Please Input" or "Please Select": each says what goes in it', async ({ app }) => {
  const { page } = app
  const stand_ins = async (screen: string): Promise<void> => {
    await expect(page.locator('[placeholder^="Please "]'), `${screen}: a placeholder attribute`).toHaveCount(0)
    await expect(page.getByText(/^Please (Input|Select)$/), `${screen}: a select's placeholder`).toHaveCount(0)
  }
  await expect(page.getByTestId('payout-amount')).toBeVisible()
  await stand_ins('Payouts')
  await page.getByTestId('nav-cards').click()
  await page.getByRole('tab', { name: 'Cardholders' }).click()
  await expect(page.getByTestId('holder-phone')).toBeVisible()
  await stand_ins('Cardholders')
  const path = join(app.userDataDir, 'payroll.csv')
  await writeFile(path, PAYROLL)
  await openSheet(app, path)
  await stand_ins('Bulk import steps')
})
