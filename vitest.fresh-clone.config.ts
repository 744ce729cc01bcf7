import { defineConfig } from 'vitest/config'
import unit from './vitest.config'

/**
 * The commands a newcomer runs, each from a copy of the project as a fresh clone has it
 * (tests/fresh-clone: npm start and npm run dev against a mirror of Electron's releases, the bridge,
 * check-sheet, npm run package). Each builds the whole app, so they run one file at a time; `npm
 * test` starts them beside the unit tests at the lowest CPU priority (decision 122), so they take
 * only what the unit tests leave idle, and waits for them before the e2e tests.
 *   node scripts/with-keychain.mjs npx vitest run --config vitest.fresh-clone.config.ts
 */
export default defineConfig({
  test: {
    ...unit.test,
    include: ['tests/fresh-clone/**/*.test.ts'],
    maxWorkers: 1,
  },
})
