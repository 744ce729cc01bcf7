// Types of scripts/test-tools.cjs for the config, the test support and the unit tests.
export interface Found {
  path: string
  source: 'PAYOUT_DESK_CHROMIUM' | 'debian' | 'playwright'
}
interface MachineOptions {
  env?: NodeJS.ProcessEnv
  platform?: NodeJS.Platform
  exists?: (path: string) => boolean
}
export const DEBIAN_CHROMIUM: string
export const MINIMUM_POSTGRES: number
export function playwrightChromium(): string | null
export function findChromium(options?: MachineOptions & { playwright?: () => string | null }): Found | null
export function chromiumExecutablePath(
  options?: MachineOptions & { playwright?: () => string | null },
): string | undefined
export function executable(name: string, platform?: NodeJS.Platform): string
export function onPath(name: string, options?: MachineOptions): string | null
export function usualPostgresFolders(
  options?: MachineOptions & { list?: (folder: string, exists: (path: string) => boolean) => string[] },
): string[]
export function initdbMajorVersion(initdb: string): number | null
export function findPostgres(
  options?: MachineOptions & {
    list?: (folder: string, exists: (path: string) => boolean) => string[]
    majorVersion?: (initdb: string) => number | null
  },
): { bin: string; version: number } | null
