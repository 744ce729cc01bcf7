/**
 * The run's pace in plain words (decision 144), through the screens: with the Sandbox metering name
 * checks as a real service would, the progress of a run says how many names a second the service
 * is answering while the checks run; and Settings keeps a profile's ceiling of requests at once,
 * which can only lower the built-in 32.
 */
import { expect, test, type AppFixture } from './fixtures'
import { importOnScreen } from './bulk-screen'

test.setTimeout(240_000)

const HEADER = 'Reference,Beneficiary Name,Bank Code,Acct No,Amount,E-mail,Narration'

async function sandboxAdmin(app: AppFixture, method: string, path: string, body?: unknown): Promise<void> {
  const { secretKey } = await app.running.services.profiles.credentialsOf('sandbox')
  const response = await fetch(`${app.sandboxUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  expect(response.ok).toBe(true)
}

test('a rate-limited run says its pace in words while the names are checked', async ({ app }) => {
  const { page } = app
  const lines = Array.from(
    { length: 300 },
    (_, i) =>
      `PACE-${String(i + 1).padStart(4, '0')},Payee ${i + 1},044,${String(1_000_000_000 + i * 7)},${1000 + i}.00,p${i + 1}@example.com,May ${i + 1}`,
  )
  await importOnScreen(app, 'may-vendors.csv', [HEADER, ...lines].join('\r\n'))
  // The service takes 20 name checks a second, and each takes 50 ms: about 15 s for 300 names.
  await sandboxAdmin(app, 'POST', '/__sandbox/rate-limit', { perSecond: 20, groups: ['name-checks'] })
  await sandboxAdmin(app, 'POST', '/__sandbox/faults', {
    path: '/merchant/api/v1/misc/banks/resolve',
    kind: 'latency',
    ms: 50,
    count: 1000,
  })
  await page.getByTestId('bulk-resolve').click()
  const pace = page.getByTestId('bulk-progress-pace')
  await expect(pace).toHaveText(/\(checking about \d+ names? a second\)/, { timeout: 60_000 })
  // The words are the service's pace, not the desk's wish: never past the 20 a second it takes.
  const said = Number(/about (\d+)/.exec((await pace.textContent()) ?? '')?.[1])
  expect(said).toBeGreaterThan(0)
  expect(said).toBeLessThanOrEqual(25)
  // The bar steps with each progress main tells (decision 181): naive-ui's slide of its width ran
  // one into the next, and the screen drew a frame every 16 ms for the whole of a long step.
  // (The tests ask for reduced motion, which stops every transition: this look asks for none.)
  await page.emulateMedia({ reducedMotion: 'no-preference' })
  const bar = page.getByTestId('bulk-progress')
  const before = await bar.getByRole('progressbar').getAttribute('aria-label')
  const running: number[] = []
  for (let look = 0; look < 20; look++) {
    running.push(await bar.evaluate((element) => element.getAnimations({ subtree: true }).length))
    await page.waitForTimeout(50)
  }
  expect(await bar.getByRole('progressbar').getAttribute('aria-label')).not.toBe(before)
  expect(running.every((count) => count === 0)).toBe(true)
  await page.emulateMedia({ reducedMotion: 'reduce' })
  await expect(page.getByTestId('bulk-review')).toBeVisible({ timeout: 120_000 })
  await expect(pace).toHaveCount(0)
  await sandboxAdmin(app, 'DELETE', '/__sandbox/rate-limit')
})

test("Settings keeps a profile's ceiling of requests at once, and refuses raising it past 32", async ({ app }) => {
  const { page, running } = app
  await page.getByTestId('nav-settings').click()
  const sandbox = page.getByTestId('profile-card-sandbox')
  const input = sandbox.getByTestId('profile-pace-ceiling-input')
  await expect(input).toHaveValue('32')
  await input.fill('6')
  await sandbox.getByTestId('profile-pace-ceiling-save').click()
  await expect(sandbox.getByTestId('profile-pace-ceiling-saved')).toHaveText(
    'Runs send at most 6 requests at once to this service.',
  )
  // Kept in main, and given to the profile's client.
  expect((await running.services.profiles.credentialsOf('sandbox')).paceCeiling).toBe(6)
  // Main refuses a ceiling past 32 whatever the screen sends.
  await expect(running.services.handlers['profiles:setPaceCeiling']({ id: 'sandbox', ceiling: 33 })).rejects.toThrow()
})
