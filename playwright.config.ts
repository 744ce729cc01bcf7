import { defineConfig } from '@playwright/test'
import { chromiumExecutablePath } from './scripts/test-tools.cjs'

// PAYOUT_DESK_CHROMIUM, else Debian's Chromium where it is installed, else Playwright's own
// (`npx playwright install chromium`): decision 69. The flags keep it off the network entirely.
const chromium = chromiumExecutablePath()

export default defineConfig({
  testDir: 'tests/e2e',
  // Every file the tests write is kept until the run ends and scanned for secrets (tests/scan/).
  globalSetup: './tests/e2e/global-setup.ts',
  globalTeardown: './tests/e2e/global-teardown.ts',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // Every test starts its own bridge, simulator and user data: they are isolated, so tests (not
  // only files) run in parallel, two at a time (CI has two cores), and the two workers stay busy to
  // the end instead of one finishing a long file alone. A file whose tests share a set-up says so
  // (team-release.spec.ts: `mode: 'serial'`, one worker, in order).
  fullyParallel: true,
  workers: 2,
  // Longest first: the team specs, whose release tests run in order on one worker (about 110 s),
  // start at once beside the rest instead of running alone at the end of the run.
  projects: [
    { name: 'team', testMatch: /\/team[\w-]*\.spec\.ts$/ },
    { name: 'desk', testIgnore: /\/team[\w-]*\.spec\.ts$/ },
  ],
  retries: 0,
  reporter: [['list']],
  outputDir: 'test-results',
  use: {
    headless: true,
    viewport: { width: 1280, height: 820 },
    // A trace costs about a third of the run's time on two cores (measured: payouts.spec 66 s with,
    // 48 s without). Off in CI, where a failure prints the screen's text instead (fixtures.ts);
    // PAYOUT_DESK_TRACE=1 keeps the trace of each failed test when reproducing one.
    trace: process.env.PAYOUT_DESK_TRACE === '1' ? 'retain-on-failure' : 'off',
    screenshot: 'only-on-failure',
    // The pages ask for reduced motion, which the app honours (global.css): no spinner or colour
    // transition is drawn frame after frame in software while a test waits. Measured on three
    // specs, 62 to 66 s against 79 to 84 s (decision 160). What the tests assert does not move.
    reducedMotion: 'reduce',
    launchOptions: {
      executablePath: chromium,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
})
