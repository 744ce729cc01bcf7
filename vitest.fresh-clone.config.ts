import { defineConfig } from 'vitest/config'
import unit from './vitest.config'

/**
 * The commands a newcomer runs, each from a copy of the project as a fresh clone has it
 * (tests/fresh-clone: npm start and npm run dev against a mirror of Electron's releases, the bridge,
 * check-sheet, npm run package). Each builds the whole app, so they run on their own, one file at a
 * time, after the unit tests (`npm test`), not beside the unit tests that measure time.
 *   node scripts/with-keychain.mjs npx vitest run --config vitest.fresh-clone.config.ts
 */
export default defineConfig({
  test: {
    ...unit.test,
    include: ['tests/fresh-clone/**/*.test.ts'],
    maxWorkers: 1,
  },
})
