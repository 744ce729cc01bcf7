// Types of scripts/start.mjs for the unit tests.
export function nodeVersionProblem(version?: string): string | null
export function ensureElectron(
  retryCommand: string,
  packageDir?: string,
): Promise<{ binary: string; problem?: undefined } | { problem: string; binary?: undefined }>
export function main(args?: string[]): Promise<number>
