/** A profile's mode in a sentence ("… belongs to the profile "Acme" (Live: real money)"), the same in main and on screen. */
import type { ProfileMode } from '../domain/profiles'

export const MODE_NAMES: Readonly<Record<ProfileMode, string>> = {
  live: 'Live: real money',
  test: 'Test mode: not real money',
  sandbox: 'Sandbox: simulated, not real money',
}
