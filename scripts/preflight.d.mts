// Types of scripts/preflight.mjs for the unit tests.
export interface Probe {
  command(name: string): boolean
  libsecret(): boolean
  chromium(): unknown
  postgres(): unknown
  keytarBuilt(): boolean
}
export interface Missing {
  what: string
  apt?: string
  brew?: string
  scoop?: string
  command?: string
  rebuildsKeytar?: boolean
}
export function systemProbe(options?: { env?: NodeJS.ProcessEnv; platform?: NodeJS.Platform }): Probe
export function missingForKeychain(options?: { platform?: NodeJS.Platform; probe?: Probe }): Missing[]
export function missingForTests(options?: {
  platform?: NodeJS.Platform
  env?: NodeJS.ProcessEnv
  probe?: Probe
}): Missing[]
export function explainMissing(missing: Missing[], platform?: NodeJS.Platform): string
