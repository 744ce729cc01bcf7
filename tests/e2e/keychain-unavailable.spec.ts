/**
 * A Linux machine without a Secret Service: the user is told what is missing and what to install,
 * key entry is disabled, and everything else (Sandbox, profiles, lookups) keeps working.
 */
import { expect, test } from './fixtures'

test.use({ keychainAvailable: false })

test('says what to install, disables key entry, and keeps the rest of the app working', async ({ app }) => {
  const { page } = app
  await page.getByTestId('nav-settings').click()
  const warning = page.getByTestId('keychain-warning')
  await expect(warning).toContainText('No OS keychain is running (the Secret Service did not answer).')
  await expect(warning).toContainText('sudo apt-get install gnome-keyring libsecret-1-0')

  // Profiles can still be created; their keys cannot be typed in.
  const form = page.getByTestId('create-profile-form')
  await form.getByTestId('create-name').fill('Ops test')
  await form.getByTestId('create-mode-test').click()
  await form.getByTestId('create-base-url').fill('https://payments.example.com')
  await form.getByTestId('create-submit').click()
  const card = page.locator('[data-testid^="profile-card-"][data-profile-name="Ops test"]')
  await expect(card).toBeVisible()
  await expect(card.getByTestId('key-input-secret')).toBeDisabled()
  await expect(card.getByTestId('key-save-secret')).toBeDisabled()
  await app.screenshot('settings-keychain-unavailable')

  // The Sandbox profile does not need the keychain.
  await page.getByTestId('profile-card-sandbox').getByTestId('profile-check-connection').click()
  await expect(page.getByTestId('profile-card-sandbox').getByTestId('connection-ok')).toContainText(/listed \d+ banks/)
  await page.getByTestId('nav-availability').click()
  await expect(page.getByTestId('availability-table')).toContainText('Available')
})
