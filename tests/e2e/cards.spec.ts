/**
 * Virtual cards as an accountant uses them, through the bridge in Chromium: a cardholder with an
 * identity image, issuing, pending -> active, the list with filters and paging, the details drawer
 * with reveal, hide and copy. After every test, every file the app wrote and everything its log
 * and the page printed are searched for the PANs and CVVs the simulator issued.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { test, expect } from './fixtures'
import { fillDays } from './list-filter'
import type { AppFixture } from './fixtures'
import { cardSecretsAt, scanForCardData } from './card-data-scan'
import { smallPng } from './images'

let scratch: string
let captured: Array<{ where: string; text: string }>
let restoreConsole: () => void
/** Files outside userData the test had the app write (exports). */
let written: string[]
let identityBase64: string

test.beforeEach(async ({ app }) => {
  scratch = await mkdtemp(join(tmpdir(), 'payout-desk-cards-'))
  written = []
  captured = []
  // Main runs in this process under the bridge: whatever its log prints is captured and searched.
  const { error, warn, log } = console
  const keep =
    (where: string, original: (...parts: unknown[]) => void) =>
    (...parts: unknown[]) => {
      captured.push({ where, text: parts.map((part) => (part instanceof Error ? part.stack : String(part))).join(' ') })
      original(...parts)
    }
  console.error = keep('main log (error)', error)
  console.warn = keep('main log (warn)', warn)
  console.log = keep('main log', log)
  restoreConsole = () => Object.assign(console, { error, warn, log })
  app.page.on('console', (message) => captured.push({ where: 'renderer console', text: message.text() }))
})

test.afterEach(async ({ app }) => {
  restoreConsole()
  const { secretKey } = await app.running.services.profiles.credentialsOf('sandbox')
  const secrets = await cardSecretsAt(app.sandboxUrl, secretKey)
  const { files, findings } = await scanForCardData({
    // The export writer may add files next to an export (a summary CSV): scan the whole folder.
    paths: [app.userDataDir, ...written, scratch],
    texts: captured,
    secrets,
    needles: identityBase64 ? [identityBase64.slice(0, 48)] : [],
  })
  expect(files.length).toBeGreaterThan(0)
  expect(findings).toEqual([])
  // PAN and CVV crossed to the renderer only in answers to an explicit reveal.
  for (const body of app.responses) {
    if (secrets.some((secret) => body.includes(secret.pan))) expect(body).toContain('"hideAfterMs"')
  }
  await rm(scratch, { recursive: true, force: true })
})

async function chooseOption(page: Page, testId: string, text: string): Promise<void> {
  await page.getByTestId(testId).click()
  await page.keyboard.type(text)
  await page.locator('.n-base-select-option', { hasText: text }).first().click()
}

async function fillDate(page: Page, testId: string, day: string): Promise<void> {
  const input = page.getByTestId(testId).locator('input')
  await input.fill(day)
  await input.press('Enter')
  // Leaving the field commits the typed date (Escape would undo it).
  await page.getByTestId('page-heading').click()
}

async function createCardholder(app: AppFixture): Promise<void> {
  const { page } = app
  const png = join(scratch, 'passport.png')
  const bytes = smallPng()
  identityBase64 = bytes.toString('base64')
  await writeFile(png, bytes)
  await page.getByRole('tab', { name: 'Cardholders' }).click()
  await page.getByTestId('holder-first-name').fill('Amara')
  await page.getByTestId('holder-last-name').fill('Nwosu')
  await page.getByTestId('holder-email').fill('amara@example.com')
  await page.getByTestId('holder-phone').fill('+2348012345678')
  await fillDate(page, 'holder-dob', '1990-04-12')
  await page.getByTestId('holder-street').fill('12 Marina Road')
  await page.getByTestId('holder-city').fill('Lagos')
  await page.getByTestId('holder-state').fill('Lagos')
  await chooseOption(page, 'holder-country', 'Nigeria')
  await page.getByTestId('holder-zip').fill('101001')
  await page.getByTestId('holder-bvn').fill('22212345678')
  await page.getByTestId('identity-type-passport').click()
  await page.getByTestId('holder-identity-number').fill('A01234567')
  await chooseOption(page, 'holder-identity-country', 'Nigeria')
  app.running.desktop.queueOpenPath(png)
  await page.getByTestId('identity-open').click()
  await expect(page.getByTestId('identity-preview')).toBeVisible()
  await expect(page.getByTestId('identity-preview')).toHaveAttribute('alt', 'Preview of passport.png')
  await expect(page.getByTestId('identity-file')).toHaveText(`passport.png · ${bytes.length} bytes`)
  await app.screenshot('cards-cardholder-form')
  await page.getByTestId('cardholder-submit').click()
  // Created: the screen moves on to issuing, with the new holder chosen.
  await expect(page.getByTestId('issue-holder')).toContainText('Amara Nwosu — amara@example.com')
}

test('create a cardholder with an image, issue a card, see it become active, list, filter, page, open details, reveal, hide and copy', async ({
  app,
}) => {
  test.setTimeout(420_000)
  const { page } = app
  await page.getByTestId('nav-cards').click()
  await createCardholder(app)

  // Issue: mastercard unless visa is chosen; physical cannot be chosen, and says why.
  await expect(page.getByTestId('issue-currency')).toHaveText('USD')
  await expect(page.getByTestId('issue-type-physical').locator('input')).toBeDisabled()
  await expect(page.getByTestId('issue-physical-reason')).toHaveText('Only virtual cards can be issued.')
  await page.getByTestId('issue-submit').click()
  const issues = page.getByTestId('issues-table')
  await expect(issues.locator('tbody tr')).toHaveCount(1)
  await expect(issues.locator('tbody tr').first()).toContainText('Mastercard')
  const tags = issues.locator('[data-testid^="issue-status-"]')
  // Pending first (the service says so), then active when main's polling sees it.
  await expect(tags.first()).toHaveText(/Pending|Active/)
  await expect(tags.first()).toHaveText('Active')
  const [first] = await app.running.services.handlers['cards:issues'](undefined)
  const journaled = app.running.services.journal.get(first!.reference)!
  expect(journaled.timeline.map((event) => event.state)).toEqual(['recorded', 'sent', 'processing', 'success'])
  await expect.poll(() => app.running.desktop.notices.map((n) => n.title)).toContain('Virtual card active')
  await page.getByTestId('issue-brand-visa').click()
  await page.getByTestId('issue-submit').click()
  await expect(issues.locator('tbody tr')).toHaveCount(2)
  await expect(issues.locator('tbody tr').first()).toContainText('Visa')
  await expect(tags).toHaveText(['Active', 'Active'])
  await app.screenshot('cards-issued')

  // The cardholders of this desk: name, e-mail and cards held, searchable; a card is issued from a row.
  await page.getByRole('tab', { name: 'Cardholders' }).click()
  const [holder] = await app.running.services.handlers['cards:holders'](undefined)
  const holderRow = page.getByTestId(`holder-row-${holder!.reference}`)
  await expect(holderRow).toContainText('Amara Nwosu')
  await expect(holderRow).toContainText('amara@example.com')
  await expect(page.getByTestId(`holder-cards-${holder!.reference}`)).toHaveText('2 cards')
  await page.getByTestId('holder-list-search').fill('nobody')
  await expect(page.getByTestId('holder-list-count')).toHaveText('0 of 1 cardholder')
  await page.getByTestId('holder-list-search').fill('AMARA@example')
  await expect(page.getByTestId('holder-list-count')).toHaveText('1 cardholder')
  await app.screenshot('cards-holders')
  await page.getByTestId(`holder-issue-${holder!.reference}`).click()
  await expect(page.getByRole('tab', { name: 'Issue a card' })).toHaveAttribute('aria-selected', 'true')
  await expect(page.getByTestId('issue-holder')).toContainText('Amara Nwosu — amara@example.com')

  // Ten more cards for the same holder, straight at the simulator, so the list has pages.
  const { secretKey } = await app.running.services.profiles.credentialsOf('sandbox')
  const holderReference = (await app.running.services.handlers['cards:holders'](undefined))[0]!.reference
  for (let i = 0; i < 10; i++) {
    const answer = await fetch(`${app.sandboxUrl}/api/v1/cards`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        currency: 'USD',
        card_holder_reference: holderReference,
        reference: `bulk-card-${i}`,
        type: 'virtual',
      }),
    })
    expect(answer.status).toBe(200)
  }

  await page.getByRole('tab', { name: 'Cards' }).click()
  const rows = page.getByTestId('card-table').locator('tbody tr')
  const paging = page.getByTestId('card-paging')
  await expect(paging).toHaveText('Page 1 of 2 · 12 cards')
  await expect(rows).toHaveCount(10)
  await expect(page.getByTestId('card-page-prev')).toBeDisabled()
  await page.getByTestId('card-page-next').click()
  await expect(paging).toHaveText('Page 2 of 2 · 12 cards')
  await expect(rows).toHaveCount(2)
  await expect(page.getByTestId('card-page-next')).toBeDisabled()
  await chooseOption(page, 'card-page-size', '20 per page')
  await expect(paging).toHaveText('Page 1 of 1 · 12 cards')
  await expect(rows).toHaveCount(12)
  await expect(page.getByTestId('card-number-masked').first()).toHaveText(/^\d{6} •••••• \d{4}$/)

  // Filters: status, type and dates are applied by the service.
  await page.getByTestId('card-list-refresh').click()
  await expect.poll(async () => (await rows.allTextContents()).filter((row) => row.includes('Pending')).length).toBe(0)
  await chooseOption(page, 'card-filter-status', 'Pending')
  await expect(paging).toHaveText('No cards match.')
  await chooseOption(page, 'card-filter-status', 'Active')
  await expect(paging).toHaveText('Page 1 of 1 · 12 cards')
  await chooseOption(page, 'card-filter-type', 'Physical')
  await expect(paging).toHaveText('No cards match.')
  await chooseOption(page, 'card-filter-type', 'Virtual')
  await expect(paging).toHaveText('Page 1 of 1 · 12 cards')
  const today = new Date().toISOString().slice(0, 10)
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)
  // The day range every list has; here the service applies it.
  await fillDays(page, 'card-list-days', tomorrow, tomorrow)
  await expect(paging).toHaveText('No cards match.')
  await fillDays(page, 'card-list-days', today, today)
  await expect(paging).toHaveText('Page 1 of 1 · 12 cards')
  // The search looks at the cards shown.
  await page.getByTestId('card-list-search').fill('nobody by this name')
  await expect(page.getByTestId('card-list-count')).toHaveText('0 of 12 cards on this page')
  await page.getByTestId('card-list-search').fill('AMARA nwosu')
  await expect(page.getByTestId('card-list-count')).toHaveText('12 cards on this page')
  await page.getByTestId('card-list-search').fill('')
  await app.screenshot('cards-list')

  // Export the filtered list: XLSX and CSV, numbers only as first six and last four.
  for (const format of ['xlsx', 'csv'] as const) {
    const path = join(scratch, `cards.${format}`)
    written.push(path)
    app.running.desktop.queueSavePath(path)
    await page.getByTestId(`card-export-${format}`).click()
    await expect(page.getByText(`12 cards exported to ${path}`)).toBeVisible()
  }
  const csv = await readFile(join(scratch, 'cards.csv'), 'utf8')
  expect(csv).toContain('Reference')
  expect(csv).toContain('Amara Nwosu')
  expect(csv.trim().split('\n')).toHaveLength(13)

  // Details of the visa card issued through the app.
  const cards = await cardSecretsAt(app.sandboxUrl, secretKey)
  const issued = await app.running.services.handlers['cards:issues'](undefined)
  const visaReference = issued.find((issue) => issue.brand === 'visa')!.reference
  const visa = cards.find((card) => card.reference === visaReference)!
  await page.getByTestId(`card-open-${visaReference}`).click()
  const drawer = page.getByTestId('card-details')
  await expect(page.getByTestId('details-status')).toHaveText('Active')
  await expect(page.getByTestId('details-holder')).toContainText('Amara Nwosu · amara@example.com · +2348012345678')
  await expect(page.getByTestId('details-billing')).toContainText('12 Marina Road, Lagos, Lagos 101001, NG')
  await expect(page.getByTestId('details-brand')).toHaveText('Visa · Virtual')
  await expect(page.getByTestId('details-balance')).toHaveText('0.00 USD')
  const masked = `${visa.pan.slice(0, 4)} ${visa.pan.slice(4, 6)}•• •••• ${visa.pan.slice(-4)}`
  await expect(page.getByTestId('details-pan')).toHaveText(masked)
  await expect(page.getByTestId('details-cvv')).toHaveText('•••')
  await expect(drawer).not.toContainText(visa.pan)

  // Reveal, then hide.
  await page.getByTestId('details-reveal').click()
  await expect(page.getByTestId('details-pan')).toHaveText(visa.pan.replace(/(.{4})(?=.)/g, '$1 '))
  await expect(page.getByTestId('details-cvv')).toHaveText(visa.cvv)
  await app.screenshot('cards-details-revealed')
  await page.getByTestId('details-hide').click()
  await expect(page.getByTestId('details-pan')).toHaveText(masked)
  await expect(page.getByTestId('details-cvv')).toHaveText('•••')

  // Revealed, then the drawer closes: opened again, it is masked.
  await page.getByTestId('details-reveal').click()
  await expect(page.getByTestId('details-cvv')).toHaveText(visa.cvv)
  await page.keyboard.press('Escape')
  await expect(drawer).toBeHidden()
  await page.getByTestId(`card-open-${visaReference}`).click()
  await expect(page.getByTestId('details-pan')).toHaveText(masked)
  await expect(page.getByTestId('details-cvv')).toHaveText('•••')

  // Copy goes through main; the clipboard holds the number, then is cleared 30 s later. Revealed at
  // the same time, the number is masked again after 30 s too (the real delays, not shortened).
  // Main fetches the number from the service first: on a loaded machine that takes seconds, so the
  // clipboard is waited for before the notice (shown for 4 s from when the copy is done).
  await page.getByTestId('details-copy').click()
  await expect.poll(() => app.running.desktop.clipboard.readText(), { timeout: 30_000 }).toBe(visa.pan)
  await expect(page.getByText('Card number copied. The clipboard is cleared in 30 seconds.')).toBeVisible()
  await page.getByTestId('details-reveal').click()
  await expect(page.getByTestId('details-cvv')).toHaveText(visa.cvv)
  await expect(page.getByTestId('details-cvv')).toHaveText('•••', { timeout: 45_000 })
  await expect(page.getByTestId('details-pan')).toHaveText(masked)
  await expect.poll(() => app.running.desktop.clipboard.readText(), { timeout: 45_000 }).toBe('')
})

test('a cardholder form sent empty names each missing field under it, announced, and sends nothing', async ({
  app,
}) => {
  const { page } = app
  await page.getByTestId('nav-cards').click()
  await page.getByRole('tab', { name: 'Cardholders' }).click()
  await page.getByTestId('holder-email').fill('amara@')
  await page.getByTestId('cardholder-submit').click()
  await expect(page.getByTestId('error-first_name')).toHaveText('Enter the first name.')
  await expect(page.getByTestId('error-last_name')).toHaveText('Enter the last name.')
  await expect(page.getByTestId('error-email')).toHaveText('This is not a valid e-mail address.')
  await expect(page.getByTestId('error-country_identity.number')).toHaveText('Enter the BVN.')
  await expect(page.getByTestId('error-first_name')).toHaveAttribute('role', 'alert')
  // Fixing a field clears its problem as the user types; the others stay.
  await page.getByTestId('holder-first-name').fill('Amara')
  await expect(page.getByTestId('error-first_name')).toHaveCount(0)
  await expect(page.getByTestId('error-last_name')).toBeVisible()
  // Nothing reached the service: no cardholder was kept.
  await expect(readFile(join(app.userDataDir, 'cardholders.json'), 'utf8')).rejects.toThrow()
})
