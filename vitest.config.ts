import { defineConfig } from 'vitest/config'
import LongestFirstSequencer, { KNOWN_LONG_FILES } from './tests/support/longest-first-sequencer'

/**
 * The files that run in a process of their own (decision 160): the long ones (a process is nothing
 * beside their time), those that measure their process's memory or time, those that count the
 * workers their process started or kept warm (another file's reads start and keep them too), those
 * that build files with SheetJS's shared state and compare them byte for byte, and the `.upgraded`
 * files, which run another file's tests again against an upgraded database by importing it (a
 * module evaluated once per process would register no tests the second time).
 */
const OWN_PROCESS = [
  'tests/soak/**/*.test.ts',
  'tests/unit/hostile/**/*.test.ts',
  'tests/unit/**/*.upgraded.test.ts',
  'tests/unit/**/corpus.test.ts',
  'tests/unit/electron/main/services/bulk/import/import-service.test.ts',
  'tests/unit/electron/main/services/documents/pdf-renderer.test.ts',
  'tests/unit/electron/main/services/files/warm-workers.test.ts',
  ...KNOWN_LONG_FILES,
]

export default defineConfig({
  test: {
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
    // The soak's short version runs with the unit tests (tests/soak; the long one by its command).
    // Most files share their worker's process and the modules it has loaded (decision 160): a fresh
    // process per file cost about half a CPU-second each, a third of the short files' time.
    projects: [
      {
        extends: true,
        test: { name: 'own-process', include: OWN_PROCESS, isolate: true },
      },
      {
        extends: true,
        test: {
          name: 'shared-process',
          include: ['tests/unit/**/*.test.ts'],
          exclude: OWN_PROCESS,
          isolate: false,
        },
      },
    ],
  },
})
