/**
 * Settings as an accountant uses it: profiles, keys, the active profile and its badge. The keys
 * typed here must never come back: not into the page, not in any bridge answer, not on disk.
 */
import { randomBytes } from 'node:crypto'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { test, expect } from './fixtures'
import type { Locator, Page } from '@playwright/test'

function cardOf(page: Page, name: string): Locator {
  return page.locator(`[data-testid^="profile-card-"][data-profile-name="${name}"]`)
}

async function createProfile(page: Page, name: string, mode: 'test' | 'live', baseUrl: string): Promise<void> {
  const form = page.getByTestId('create-profile-form')
  await form.getByTestId('create-name').fill(name)
  await form.getByTestId(`create-mode-${mode}`).click()
  await form.getByTestId('create-base-url').fill(baseUrl)
  await form.getByTestId('create-submit').click()
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true })
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name))
}

test.beforeEach(async ({ app }) => {
  // Screenshots without half-finished fades (the app honours reduced motion).
  await app.page.emulateMedia({ reducedMotion: 'reduce' })
  await app.page.getByTestId('nav-settings').click()
  await expect(app.page.getByTestId('profile-card-sandbox')).toBeVisible()
})

test('Sandbox is built in: active, no keys, cannot be renamed or removed, connects', async ({ app }) => {
  const sandbox = app.page.getByTestId('profile-card-sandbox')
  await expect(sandbox.getByTestId('profile-active-marker')).toBeVisible()
  await expect(sandbox.getByTestId('profile-rename')).toHaveCount(0)
  await expect(sandbox.getByTestId('profile-remove')).toHaveCount(0)
  await expect(sandbox.getByTestId('key-input-secret')).toHaveCount(0)
  await sandbox.getByTestId('profile-check-connection').click()
  await expect(sandbox.getByTestId('connection-ok')).toContainText(/listed \d+ banks/)
})

test('a bad base URL is refused with the validation message, field by field', async ({ app }) => {
  const { page } = app
  await createProfile(page, 'Plain http', 'test', 'http://payments.example.com')
  const error = page.getByTestId('create-profile-form').getByTestId('result-error')
  await expect(error).toBeVisible()
  // The field in words, what was wrong, and what to do; the code only as data for support.
  await expect(error.getByTestId('result-error-issues')).toContainText('Base URL:')
  await expect(error.getByTestId('result-error-issues')).not.toContainText('baseUrl')
  await expect(error.getByTestId('result-error-issues')).toContainText('must use https')
  await expect(error.getByTestId('result-error-hint')).toHaveText('Correct what the message names, then try again.')
  await expect(error).toHaveAttribute('data-code', 'bad_request')
  await expect(error).not.toContainText('bad_request')
  await createProfile(page, 'Not a URL', 'test', 'payments')
  await expect(error.getByTestId('result-error-issues')).toContainText('http(s) URL')
  await expect(cardOf(page, 'Not a URL')).toHaveCount(0)
  await app.screenshot('settings-validation-error')
})

test('keys are saved, shown only as their last 4, never sent back or stored in the clear; live needs confirmation', async ({
  app,
}) => {
  const { page } = app
  const secretKey = `sk_test_${randomBytes(20).toString('hex')}`
  // 32 characters: AES-256 takes a 32-byte key (spec 5.3).
  const encryptionKey = `enc_${randomBytes(14).toString('hex')}`

  await createProfile(page, 'Acme test', 'test', app.sandboxUrl)
  const testCard = cardOf(page, 'Acme test')
  await expect(testCard).toBeVisible()
  await expect(testCard.getByTestId('key-state-secret')).toHaveText('not set')
  await expect(testCard.getByTestId('key-state-encryption')).toHaveText('not set')
  // The form is emptied for the next profile.
  await expect(page.getByTestId('create-name')).toHaveValue('')

  const secretInput = testCard.getByTestId('key-input-secret')
  await expect(secretInput).toHaveAttribute('type', 'password')
  await secretInput.fill(secretKey)
  await testCard.getByTestId('key-save-secret').click()
  await expect(testCard.getByTestId('key-state-secret')).toHaveText(`configured …${secretKey.slice(-4)}`)
  await expect(secretInput).toHaveValue('')

  // A key of 9 characters is named as such and cannot be saved.
  await testCard.getByTestId('key-input-encryption').fill('abcdefghi')
  await expect(testCard.getByTestId('key-shape-encryption')).toContainText(
    'An encryption key is exactly 32 characters: card charges are encrypted with AES-256, which takes a 32-byte key. This one has 9.',
  )
  await expect(testCard.getByTestId('key-save-encryption')).toBeDisabled()
  await testCard.getByTestId('key-input-encryption').press('Enter')
  await expect(testCard.getByTestId('key-state-encryption')).toHaveText('not set')
  await testCard.getByTestId('key-input-encryption').fill(encryptionKey)
  await expect(testCard.getByTestId('key-shape-encryption')).toHaveCount(0)
  await testCard.getByTestId('key-input-encryption').press('Enter')
  await expect(testCard.getByTestId('key-state-encryption')).toHaveText(`configured …${encryptionKey.slice(-4)}`)
  await expect(testCard.getByTestId('key-input-encryption')).toHaveValue('')

  // Switching to a test profile needs no confirmation, and the badge says so at once.
  await testCard.getByTestId('profile-activate').click()
  const badge = page.getByTestId('active-profile-badge')
  await expect(badge).toHaveAttribute('data-mode', 'test')
  await expect(page.getByTestId('active-profile-name')).toHaveText('Acme test')
  await expect(page.getByTestId('active-profile-mode')).toHaveText('TEST — not real money')
  await expect(testCard.getByTestId('profile-active-marker')).toBeVisible()
  await expect(page.getByTestId('profile-card-sandbox').getByTestId('profile-active-marker')).toHaveCount(0)
  await app.screenshot('settings-test-profile-with-keys')

  // A live profile asks before it becomes active; Cancel leaves everything as it was.
  await createProfile(page, 'Acme live', 'live', 'https://payments.example.com')
  const liveCard = cardOf(page, 'Acme live')
  await expect(liveCard).toBeVisible()
  await liveCard.getByTestId('profile-activate').click()
  await expect(page.getByText('Use a LIVE profile?')).toBeVisible()
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click()
  await expect(page.getByText('Use a LIVE profile?')).toHaveCount(0)
  await expect(badge).toHaveAttribute('data-mode', 'test')

  await liveCard.getByTestId('profile-activate').click()
  await page.getByRole('dialog').getByRole('button', { name: 'Yes, use the live profile' }).click()
  await expect(badge).toHaveAttribute('data-mode', 'live')
  await expect(page.getByTestId('active-profile-name')).toHaveText('Acme live')
  await expect(page.getByTestId('active-profile-mode')).toHaveText('LIVE — real money')
  await expect(page.getByTestId('live-strip')).toBeVisible()
  await expect(page.getByRole('dialog')).toHaveCount(0)
  await app.screenshot('settings-live-active')
  await page.getByTestId('nav-payouts').click()
  await expect(page.getByTestId('live-strip')).toBeVisible()
  await app.screenshot('payouts-live-active')
  await page.getByTestId('nav-settings').click()

  // Clearing a key leaves it "not set".
  await testCard.getByTestId('key-clear-secret').click()
  await expect(testCard.getByTestId('key-state-secret')).toHaveText('not set')
  await expect(testCard.getByTestId('key-clear-secret')).toBeDisabled()

  // The keys appear nowhere: not in the page, not in any bridge answer, not in any file main wrote.
  const html = await page.content()
  for (const key of [secretKey, encryptionKey]) {
    expect(html).not.toContain(key)
    expect(app.responses.length).toBeGreaterThan(0)
    for (const body of app.responses) expect(body).not.toContain(key)
    for (const file of await filesUnder(app.userDataDir)) {
      const content = await readFile(file)
      expect(content.includes(Buffer.from(key, 'utf8')), `${file} holds a key`).toBe(false)
      expect(content.includes(Buffer.from(key, 'utf16le')), `${file} holds a key`).toBe(false)
    }
  }
})

test('a profile can be renamed and removed, after confirmation', async ({ app }) => {
  const { page } = app
  await createProfile(page, 'Old name', 'test', 'https://payments.example.com')
  const card = cardOf(page, 'Old name')
  await card.getByTestId('profile-rename').click()
  await expect(card.getByTestId('profile-rename-input')).toBeFocused()
  await card.getByTestId('profile-rename-input').fill('New name')
  await card.getByTestId('profile-rename-save').click()
  const renamed = cardOf(page, 'New name')
  await expect(renamed).toBeVisible()

  await renamed.getByTestId('profile-remove').click()
  await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click()
  await expect(renamed).toHaveCount(0)
  await expect(page.getByTestId('profile-card-sandbox')).toBeVisible()
})

test('Check connection of a test profile without keys shows the error the same way as every other', async ({ app }) => {
  const { page } = app
  await createProfile(page, 'No keys yet', 'test', app.sandboxUrl)
  const card = cardOf(page, 'No keys yet')
  await card.getByTestId('profile-check-connection').click()
  const error = card.getByTestId('result-error')
  await expect(error).toBeVisible()
  await expect(error.getByTestId('result-error-message')).not.toBeEmpty()
  // On Settings, the hint points at the fields on this screen, never "in Settings".
  await expect(error.getByTestId('result-error-hint')).toHaveText(
    "Paste the profile's keys into its Secret key and Encryption key fields on this screen, then try again.",
  )
  await expect(error).not.toContainText('in Settings')
  await expect(error).not.toContainText('Error code')

  // A key the service refuses: the hint says which field on this screen, not "check it in Settings".
  await card.getByTestId('key-input-secret').fill(`sk_test_wrong_${Date.now()}`)
  await card.getByTestId('key-save-secret').click()
  await expect(card.getByTestId('key-state-secret')).toContainText('configured')
  await card.getByTestId('profile-check-connection').click()
  await expect(error).toHaveAttribute('data-code', 'unauthorized')
  await expect(error.getByTestId('result-error-hint')).toHaveText(
    "The payments service refused the profile's secret key: paste the right one into its Secret key field on this screen, then try again.",
  )
  await expect(error).not.toContainText('in Settings')
})
