import { defineConfig } from 'vitest/config'
import unit from './vitest.config'

/**
 * The commands a newcomer runs, each from a copy of the project as a fresh clone has it
 * (tests/fresh-clone: npm start and npm run dev against a mirror of Electron's releases, the bridge,
 * check-sheet, npm run package). Each builds the whole app, so they run on their own after the unit
 * tests (`npm test`), not beside the unit tests that measure time. Two files at a time: a build is
 * mostly one core (Rollup's bundling, electron-builder's copying), and each copy has its own
 * node_modules links, Electron package, download cache and output, so two share nothing.
 *   node scripts/with-keychain.mjs npx vitest run --config vitest.fresh-clone.config.ts
 */
export default defineConfig({
  test: {
    ...unit.test,
    include: ['tests/fresh-clone/**/*.test.ts'],
    maxWorkers: 2,
  },
})
