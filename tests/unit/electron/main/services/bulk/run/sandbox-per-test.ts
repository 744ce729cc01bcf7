/**
 * A fresh simulator and user-data folder for every test of a file, and the RunService harness on
 * them, closed after each test (vitest hooks: for test files only, not the crash children).
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach } from 'vitest'
import { startSandbox, type RunningSandbox } from '../../../../../../../electron/sandbox'
import { openHarness, type Harness } from './harness'

type HarnessOptions = Parameters<typeof openHarness>[0]

export interface SandboxPerTest {
  readonly sandbox: RunningSandbox
  readonly dir: string
  /** The harness on this test's simulator and folder; closed after the test. */
  open(options?: Partial<HarnessOptions>): Promise<Harness>
}

export function sandboxPerTest(secretKey: string, settleMs = 50): SandboxPerTest {
  let sandbox: RunningSandbox | undefined
  let dir: string | undefined
  let harness: Harness | undefined
  beforeEach(async () => {
    sandbox = await startSandbox({
      secretKey,
      encryptionKey: 'per-test-sandbox-encryption-key!',
      settleMs,
      admin: true,
    })
    dir = await mkdtemp(join(tmpdir(), 'bulk-run-test-'))
  })
  afterEach(async () => {
    await harness?.close()
    harness = undefined
    await sandbox?.close()
    if (dir) await rm(dir, { recursive: true, force: true })
  })
  return {
    get sandbox() {
      return sandbox!
    },
    get dir() {
      return dir!
    },
    async open(options = {}) {
      harness = await openHarness({ userDataDir: dir!, sandboxUrl: sandbox!.url, secretKey, ...options })
      return harness
    },
  }
}
