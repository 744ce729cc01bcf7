// Types of scripts/start.mjs for the unit tests.
export function findElectronBinary(
  packageDir: string,
  env?: NodeJS.ProcessEnv,
  platform?: NodeJS.Platform,
): string | null
export const MISSING_ELECTRON_MESSAGE: string
export function main(packageDir?: string): number
