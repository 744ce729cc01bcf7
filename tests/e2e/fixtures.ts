/**
 * The Playwright fixture every user-flow test uses: a fresh bridge running the real main services
 * (temporary userData, the real keychain of the test session, the embedded simulator), the built
 * renderer served by it, and Chromium opened on it. It records every answer the bridge sent, so
 * tests can prove that no secret ever crossed to the renderer.
 */
import { randomBytes } from 'node:crypto'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { test as base, expect } from '@playwright/test'
import type { Page } from '@playwright/test'
import { startBridgeApp } from '../../electron/main/bridge-app'
import type { RunningBridgeApp } from '../../electron/main/bridge-app'
import { KeytarSecretStore } from '../../electron/main/services/secrets/keytar-secret-store'
import type { SecretStore } from '../../electron/main/services/secrets/secret-store'
import { MANIFEST_DIR } from '../scan/final-scan'
import type { SecretsManifest } from '../scan/final-scan'
import { keepRemovedFiles, SCAN_ROOT_ENV } from '../scan/keep-removed'
import { cardSecretsAt } from './card-data-scan'

// What a test removes is kept for the scan at the end of the run (global-teardown.ts).
keepRemovedFiles()

/** The keychain, remembering every key a test saved or the app read, for the final scan. */
function recordingKeychain(keychain: SecretStore, seen: Set<string>): SecretStore {
  return {
    async get(profileId, kind) {
      const value = await keychain.get(profileId, kind)
      if (value) seen.add(value)
      return value
    },
    async set(profileId, kind, value) {
      seen.add(value)
      await keychain.set(profileId, kind, value)
    },
    delete: (profileId, kind) => keychain.delete(profileId, kind),
  }
}

/** Tells the final scan what this app instance knew: its Sandbox keys, the keys used, the cards issued. */
async function writeSecretsManifest(running: RunningBridgeApp, keys: Set<string>): Promise<void> {
  const root = process.env[SCAN_ROOT_ENV]
  if (!root) return
  const { secretKey, encryptionKey } = await running.services.profiles.credentialsOf('sandbox')
  const manifest: SecretsManifest = {
    cards: await cardSecretsAt(running.services.sandbox.url, secretKey).catch(() => []),
    keys: [...keys, secretKey, ...(encryptionKey ? [encryptionKey] : [])],
  }
  await mkdir(join(root, MANIFEST_DIR), { recursive: true })
  await writeFile(join(root, MANIFEST_DIR, `${randomBytes(8).toString('hex')}.json`), JSON.stringify(manifest))
}

/**
 * What the screen said when a test failed, in the test's own output: CI keeps no trace or
 * screenshot a person can open, so the words on screen (an error notice, the step it stopped at)
 * are what explains a failure there. The renderer never holds a secret, so its text can be printed.
 */
async function printScreenText(page: Page, title: string): Promise<void> {
  const text = await page
    .locator('body')
    .innerText({ timeout: 2_000 })
    .catch((error: Error) => `(the screen could not be read: ${error.message.split('\n')[0]})`)
  const lines = text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
  console.error(
    `\n--- The screen when "${title}" failed ---\n${lines.join('\n').slice(0, 4_000)}\n--- end of screen ---`,
  )
}

export const SCREENSHOT_DIR = resolve(__dirname, 'screenshots')

/**
 * The pictures of each screen for people to look at (tests/e2e/screenshots, not committed). CI has
 * nobody to look at them and they assert nothing, so there they are not drawn (decision 160):
 * `PAYOUT_DESK_SCREENSHOTS=1` draws them anyway.
 */
const TAKE_SCREENSHOTS = process.env['PAYOUT_DESK_SCREENSHOTS'] === '1' || !process.env['CI']

export interface AppFixture {
  page: Page
  userDataDir: string
  /** Every IPC answer and event body the bridge sent, in order. */
  responses: string[]
  running: RunningBridgeApp
  /** The simulator behind the Sandbox profile. */
  sandboxUrl: string
  screenshot(name: string): Promise<void>
}

/** What a test does to the user data before the app starts on it (a desk killed there first). */
export type BeforeAppStarts = ((userDataDir: string) => Promise<void>) | undefined

export const test = base.extend<{
  app: AppFixture
  keychainAvailable: boolean
  bridgeTestMode: boolean
  beforeAppStarts: BeforeAppStarts
}>({
  /** Set to false to run the app as on a Linux machine without a Secret Service. */
  keychainAvailable: [true, { option: true }],
  /**
   * The desktop stand-ins (queued dialog paths, an in-memory clipboard). Set to false to drive the
   * browser surface a person gets from `npm run bridge`: file picker, downloads, browser clipboard.
   */
  bridgeTestMode: [true, { option: true }],
  /**
   * Run on the fresh user data before the app starts on it: the app then starts as after a restart,
   * finding whatever that left (killed-desk.ts: a desk killed mid-payment on that user data).
   */
  beforeAppStarts: [undefined, { option: true }],
  app: async ({ page, keychainAvailable, bridgeTestMode, beforeAppStarts }, use, testInfo) => {
    const userDataDir = await mkdtemp(join(tmpdir(), 'payout-desk-e2e-'))
    await beforeAppStarts?.(userDataDir)
    const responses: string[] = []
    const keysSeen = new Set<string>()
    const running = await startBridgeApp({
      userDataDir,
      staticDir: resolve(__dirname, '../../out/renderer'),
      sandboxSettleMs: 300,
      testMode: bridgeTestMode,
      onResponse: (_channel, body) => responses.push(body),
      // keytar's own error on a machine with no session bus, through the real KeytarSecretStore.
      keychain: recordingKeychain(
        keychainAvailable
          ? new KeytarSecretStore()
          : new KeytarSecretStore(async () => {
              throw new Error('Cannot autolaunch D-Bus without X11 $DISPLAY')
            }),
        keysSeen,
      ),
    })
    page.on('pageerror', (error) => console.error('page error:', error.message))
    await page.goto(running.bridge.appUrl)
    await mkdir(SCREENSHOT_DIR, { recursive: true })
    await use({
      page,
      userDataDir,
      responses,
      running,
      sandboxUrl: running.services.sandbox.url,
      screenshot: async (name) => {
        if (!TAKE_SCREENSHOTS) return
        await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: true })
      },
    })
    if (testInfo.status !== testInfo.expectedStatus) await printScreenText(page, testInfo.title)
    await writeSecretsManifest(running, keysSeen)
    await running.close()
    // Kept aside under the run's scan root (keep-removed.ts) until the final scan.
    await rm(userDataDir, { recursive: true, force: true })
  },
})

export { expect }
