/**
 * Help & About through the bridge: what the app tells support about itself, and "Copy diagnostics"
 * putting versions, profile modes and the last log lines on the clipboard, never a key.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { test, expect } from './fixtures'

test('About shows the version, runtime, OS, profile modes, log file and update state', async ({ app }) => {
  const { page } = app
  await page.getByTestId('open-about').click()
  const dialog = page.getByRole('dialog', { name: 'About Payout Desk' })
  await expect(dialog).toBeVisible()
  await expect(page.getByTestId('about-version')).toHaveText(/^Payout Desk \S+ \(bridge\)$/)
  await expect(page.getByTestId('about-runtime')).toContainText(`Node ${process.versions.node}`)
  await expect(page.getByTestId('about-os')).toContainText(process.platform)
  await expect(page.getByTestId('about-profiles')).toHaveText('active sandbox; sandbox 1, test 0, live 0')
  await expect(page.getByTestId('about-log-file')).toHaveText(join(app.userDataDir, 'logs', 'main.log'))
  await expect(page.getByTestId('about-update')).toHaveText('Updates are checked only by the installed app.')
  await expect(page.getByTestId('restart-to-update')).toHaveCount(0)
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
})

test('Copy diagnostics puts versions, profile modes and the last log lines on the clipboard, no keys', async ({
  app,
}) => {
  const { page } = app
  // Something in the log for support to read.
  app.running.services.log.warn('A warning worth a support ticket')
  await page.getByTestId('open-about').click()
  await page.getByTestId('copy-diagnostics').click()
  await expect(page.getByTestId('diagnostics-status')).toContainText('Copied to the clipboard')

  const copied = await app.running.desktop.clipboard.readText()
  expect(copied).toMatch(/^Payout Desk \S+ \(bridge\)\n/)
  expect(copied).toContain('Profiles: active sandbox; sandbox 1, test 0, live 0')
  expect(copied).toContain(`Log file: ${join(app.userDataDir, 'logs', 'main.log')}`)
  expect(copied).toContain('A warning worth a support ticket')
  expect(copied).toContain('starting (bridge)')
  const { secretKey, encryptionKey } = await app.running.services.profiles.credentialsOf('sandbox')
  expect(copied).not.toContain(secretKey)
  expect(copied).not.toContain(encryptionKey)
  // What was copied is shown, exactly.
  await page.getByText('Show what was copied').click()
  await expect(page.getByTestId('diagnostics-preview')).toBeVisible()
  expect(await page.getByTestId('diagnostics-preview').textContent()).toBe(copied)
  // The log file itself says the same.
  const log = await readFile(join(app.userDataDir, 'logs', 'main.log'), 'utf8')
  expect(log).toContain('A warning worth a support ticket')
  expect(log).not.toContain(secretKey)
})
