/**
 * Launches the built app in a real Electron window where an Electron binary is installed. This
 * machine cannot download one, so here the test is skipped with the reason; everything it would
 * reach (services, router, renderer) is covered through the bridge by the other specs.
 */
import { spawn } from 'node:child_process'
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

  const argsFor = (userData: string) => [
    ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
    root,
    `--user-data-dir=${userData}`,
  ]
  const launch = (userData: string) =>
    electron.launch({
      executablePath: binary!,
      args: argsFor(userData),
      env: { ...process.env, NODE_ENV: 'production' },
    })

  test('opens the main window on the Sandbox profile with the secure preload API', async () => {
    const userData = mkdtempSync(join(tmpdir(), 'payout-desk-electron-'))
    const app = await launch(userData)
    try {
      const page = await app.firstWindow()
      await expect(page).toHaveTitle(/Payout Desk/)
      await expect(page.getByTestId('active-profile-badge')).toContainText('Sandbox')
      // The renderer sees the named API and nothing of Node or Electron.
      const exposure = await page.evaluate(() => ({
        api: typeof (window as unknown as { payoutDesk?: unknown }).payoutDesk,
        require: typeof (window as unknown as { require?: unknown }).require,
        process: typeof (window as unknown as { process?: unknown }).process,
      }))
      expect(exposure).toEqual({ api: 'object', require: 'undefined', process: 'undefined' })
      // The page comes from app://, never from file://.
      expect(page.url()).toMatch(/^app:\/\/payout-desk\/index\.html/)
      // Navigation away from the app is blocked by the app-wide guard: the attempt is refused (the
      // main process saw will-navigate and prevented it) and the page stays, still working.
      type Seen = { url: string; prevented: boolean }
      // Listening in main first (heard after the app's own guard, attached when the window was created)...
      await app.evaluate(({ webContents }) => {
        const contents = webContents.getAllWebContents().find((c) => c.getURL().startsWith('app://'))
        ;(globalThis as unknown as { navigationSeen?: Promise<Seen> }).navigationSeen = new Promise<Seen>((resolve) =>
          contents?.once('will-navigate', (event, url) => resolve({ url, prevented: event.defaultPrevented })),
        )
      })
      // ...then the page tries to leave, and main's answer is waited for, not a fixed time.
      await page.evaluate(() => {
        window.location.href = 'https://example.com/'
      })
      expect(
        await app.evaluate(() => (globalThis as unknown as { navigationSeen?: Promise<Seen> }).navigationSeen),
      ).toEqual({ url: 'https://example.com/', prevented: true })
      await expect(page.getByTestId('active-profile-badge')).toContainText('Sandbox')
      expect(page.url()).toMatch(/^app:\/\/payout-desk\/index\.html/)
    } finally {
      await app.close()
    }
  })

  test('has the application menu with standard roles, shortcuts and the Help items', async () => {
    const userData = mkdtempSync(join(tmpdir(), 'payout-desk-electron-'))
    const app = await launch(userData)
    try {
      await app.firstWindow()
      const menu = await app.evaluate(({ Menu }) =>
        (Menu.getApplicationMenu()?.items ?? []).map((item) => ({
          label: item.label.replace('&', ''),
          items: (item.submenu?.items ?? []).map((sub) => ({
            role: sub.role ?? null,
            label: sub.label,
            accelerator: sub.accelerator ?? null,
          })),
        })),
      )
      const edit = menu.find((item) => item.label === 'Edit')
      expect(edit?.items.map((item) => item.role?.toLowerCase())).toEqual(
        expect.arrayContaining(['undo', 'redo', 'cut', 'copy', 'paste', 'selectall']),
      )
      expect(edit?.items.filter((item) => item.role).every((item) => item.accelerator)).toBe(true)
      const help = menu.find((item) => item.label === 'Help')
      expect(help?.items.map((item) => item.label)).toEqual(
        expect.arrayContaining(['Open logs folder', 'Copy diagnostics', 'About Payout Desk']),
      )
    } finally {
      await app.close()
    }
  })

  test('a second launch hands over to the running window and quits, and the window placement is saved', async () => {
    const userData = mkdtempSync(join(tmpdir(), 'payout-desk-electron-'))
    const app = await launch(userData)
    try {
      const page = await app.firstWindow()
      await expect(page.getByTestId('active-profile-badge')).toContainText('Sandbox')
      await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]?.minimize())
      const second = spawn(binary!, argsFor(userData), { stdio: 'ignore' })
      const code = await new Promise<number | null>((resolve) => second.on('exit', resolve))
      expect(code).toBe(0)
      await expect
        .poll(() =>
          app.evaluate(({ BrowserWindow }) => {
            const windows = BrowserWindow.getAllWindows()
            return { count: windows.length, minimized: windows[0]?.isMinimized() }
          }),
        )
        .toEqual({ count: 1, minimized: false })
    } finally {
      await app.close()
    }
    expect(existsSync(join(userData, 'window-state.json'))).toBe(true)
  })
})
