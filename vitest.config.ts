import { defineConfig } from 'vitest/config'
import LongestFirstSequencer from './tests/support/longest-first-sequencer'

export default defineConfig({
  test: {
    // The soak's short version runs with the unit tests (tests/soak; the long one by its command).
    include: ['tests/unit/**/*.test.ts', 'tests/soak/**/*.test.ts'],
    environment: 'node',
    // Every file the tests write is kept until the run ends and scanned for secrets (tests/scan/).
    // Team tests start one PostgreSQL server for the run on first use (tests/support/postgres.ts).
    globalSetup: ['tests/unit/global-setup.ts', 'tests/support/postgres-global-setup.ts'],
    setupFiles: ['tests/unit/setup-keep-removed.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Two cores: keep workers few so the simulator's timers stay honest.
    maxWorkers: 2,
    // The files known to be long start first, so the two workers end together (a fresh clone has
    // no timings of its own for Vitest to order by).
    sequence: { sequencer: LongestFirstSequencer },
  },
})
