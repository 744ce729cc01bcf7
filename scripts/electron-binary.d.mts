// Types of scripts/electron-binary.mjs for the unit tests.
export interface InstallerEvent {
  event: 'request' | 'response' | 'failed'
  url: string
  status?: number
  statusText?: string
  length?: number
  cause?: string
}
export interface InstallFailure {
  downloadTried: boolean
  host: string | null
  problem: string
}
export function defaultRelativePath(platform: string): string
export function electronVersion(packageDir: string): string | null
export function findElectronBinary(
  packageDir: string,
  env?: NodeJS.ProcessEnv,
  platform?: NodeJS.Platform,
): string | null
export function hostOf(url: string): string
export function firstErrorLine(stderr: string): string
export function describeInstallFailure(input: {
  version: string
  events: InstallerEvent[]
  stderr: string
}): InstallFailure
export function downloadDisplay(out: { write(text: string): unknown; isTTY?: boolean }): {
  update(events: InstallerEvent[], bytes: number): void
  end(): void
}
export function installFailureLine(failure: InstallFailure, retryCommand: string): string
export function installElectron(options: {
  packageDir: string
  env?: NodeJS.ProcessEnv
  out?: NodeJS.WritableStream & { isTTY?: boolean }
}): Promise<{ ok: true; downloaded: boolean } | { ok: false; failure: InstallFailure }>
