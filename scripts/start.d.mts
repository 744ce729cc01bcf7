// Types of scripts/start.mjs for the unit tests.
export function nodeVersionProblem(version?: string): string | null
export function ensureElectron(
  retryCommand: string,
  packageDir?: string,
): Promise<{ binary: string; problem?: undefined } | { problem: string; binary?: undefined }>
export function main(args?: string[]): Promise<number>
export const APP_SOURCES: string[]
export const APP_OUTPUTS: string[]
export function appBuildNeeded(folder?: string): string | null
