/**
 * The order the unit test files start in. Vitest starts the files it has timed before longest
 * first, and files it has never timed largest first: in a fresh clone (CI) nothing is timed, and
 * a long soak that happened to be small started last, leaving one of the two workers alone with it
 * for the run's last half minute. Here the files known to be long (measured on the 2-core machine,
 * docs/performance.md) start first, longest first; every other file keeps Vitest's order. Which
 * files run, and how, is unchanged.
 */
import type { TestSpecification } from 'vitest/node'
import { BaseSequencer } from 'vitest/node'

/** Path suffixes of the longest files, longest first (seconds on the 2-core machine, 2026-11-27). */
export const KNOWN_LONG_FILES = [
  'tests/soak/team-recovery.test.ts', // 108
  'tests/unit/electron/main/services/bulk/import/hostile.test.ts', // 133 before decision 113
  'tests/unit/electron/main/services/documents/documents-domain.test.ts', // 47
  'tests/unit/electron/main/heap-policy.test.ts', // 34
  'tests/soak/soak.test.ts', // 32
  'tests/unit/electron/main/services/journal/journal-crash.test.ts', // 29
  'tests/unit/electron/main/ipc/ipc-fuzz.test.ts', // 27
  'tests/soak/team-soak.test.ts', // 26
  'tests/unit/scripts/check-sheet.test.ts', // 23
  'tests/unit/electron/main/services/history/hostile-review.test.ts', // 39 before decision 113
  'tests/unit/electron/main/services/cards/identity-hostile.test.ts', // 36 before decision 113
  'tests/unit/electron/main/services/cards/cards-domain.test.ts', // 16
  'tests/unit/electron/main/services/bulk/run/crash-resume.test.ts', // 16
  'tests/unit/electron/main/services/team/team-release.test.ts', // 15
]

function rank(file: TestSpecification): number {
  const path = file.moduleId.replaceAll('\\', '/')
  const at = KNOWN_LONG_FILES.findIndex((suffix) => path.endsWith(suffix))
  return at === -1 ? KNOWN_LONG_FILES.length : at
}

export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const vitestOrder = await super.sort(files)
    // Array.prototype.sort is stable: among the files not listed, Vitest's order stays.
    return [...vitestOrder].sort((a, b) => rank(a) - rank(b))
  }
}
