import { defineConfig } from 'vitest/config'
import unit from './vitest.config'

/**
 * The commands a newcomer runs, each from a copy of the project as a fresh clone has it
 * (tests/fresh-clone: npm start and npm run dev against a mirror of Electron's releases, the bridge,
 * check-sheet, npm run package). Each builds the whole app, so they run on their own after the unit
 * tests (`npm test`), not beside the unit tests that measure time. The three files at once: a build
 * is mostly one core (Rollup's bundling, electron-builder's copying), so two files at a time left
 * the third's build alone on one core at the end; each copy has its own node_modules links,
 * Electron package, download cache and output, so they share nothing.
 *   node scripts/with-keychain.mjs npx vitest run --config vitest.fresh-clone.config.ts
 */
// The unit tests' projects (decision 160) are theirs: these files run on their own.
const { projects: _unitProjects, ...unitTest } = unit.test ?? {}

export default defineConfig({
  test: {
    ...unitTest,
    include: ['tests/fresh-clone/**/*.test.ts'],
    maxWorkers: 3,
  },
})
