// Types of scripts/build-state.mjs for the unit tests.
export function newestChange(paths: string[]): { file: string | null; time: number }
export function buildNeeded(root: string, output: string, sources: string[]): string | null
