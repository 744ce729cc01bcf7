/**
 * Launches the built app in a real Electron window where an Electron binary is installed. This
 * machine cannot download one, so here the test is skipped with the reason; everything it would
 * reach (services, router, renderer) is covered through the bridge by the other specs.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { _electron as electron, expect, test } from '@playwright/test'

const root = resolve(__dirname, '../..')

/** The Electron binary's path, found without require('electron') (which would try to download it). */
function electronBinary(): string | null {
  const packageDir = join(root, 'node_modules/electron')
  const override = process.env['ELECTRON_OVERRIDE_DIST_PATH']
  const pathFile = join(packageDir, 'path.txt')
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : null
  if (!relative) return null
  const binary = override ? join(override, relative) : join(packageDir, 'dist', relative)
  return existsSync(binary) ? binary : null
}

const binary = electronBinary()

test.describe('Electron app', () => {
  test.skip(
    !binary,
    'No Electron binary is installed (node_modules/electron/dist is empty: it cannot be downloaded on this machine).',
  )

  test('opens the main window on the Sandbox profile with the secure preload API', async () => {
    const userData = mkdtempSync(join(tmpdir(), 'payout-desk-electron-'))
    const app = await electron.launch({
      executablePath: binary!,
      args: [...(process.getuid?.() === 0 ? ['--no-sandbox'] : []), root, `--user-data-dir=${userData}`],
      env: { ...process.env, NODE_ENV: 'production' },
    })
    try {
      const page = await app.firstWindow()
      await expect(page).toHaveTitle(/Payout Desk/)
      await expect(page.getByTestId('profile-badge')).toContainText('Sandbox')
      // The renderer sees the named API and nothing of Node or Electron.
      const exposure = await page.evaluate(() => ({
        api: typeof (window as unknown as { payoutDesk?: unknown }).payoutDesk,
        require: typeof (window as unknown as { require?: unknown }).require,
        process: typeof (window as unknown as { process?: unknown }).process,
      }))
      expect(exposure).toEqual({ api: 'object', require: 'undefined', process: 'undefined' })
      // Navigation away from the app is blocked by the app-wide guard.
      await page.evaluate(() => {
        window.location.href = 'https://example.com/'
      })
      await page.waitForTimeout(500)
      expect(page.url()).toMatch(/^file:.*index\.html/)
    } finally {
      await app.close()
    }
  })
})
