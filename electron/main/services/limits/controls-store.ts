/**
 * A profile's controls kept by main (decisions 127, 128): its payout limits and its payee-check
 * settings, in the settings file per profile id, with the audit of every change written in the same
 * atomic save as the change itself (a change is never kept without its audit line, nor the reverse).
 * Held in memory once read, so the limits can be checked synchronously just before a request leaves.
 */
import {
  DEFAULT_TRIPWIRE_SETTINGS,
  limitChanges,
  payeeCheckChanges,
  type ControlChange,
} from '../../../../shared/limits/desk-controls'
import { NO_LIMITS, systemTimeZone, type PayoutLimits } from '../../../../shared/limits/payout-limits'
import type { TripwireSettings } from '../../../../shared/payees/tripwires'
import { AppFailure } from '../../../../shared/result'
import type { SettingsStore, StoredControls } from '../settings'

export interface ProfileControls {
  limits: PayoutLimits
  payeeChecks: TripwireSettings
  /** Oldest first. */
  changes: readonly ControlChange[]
}

export interface ControlsStore {
  /** Reads the settings file once; the sync readers below need it done. */
  load(): Promise<void>
  /** A profile's controls now (none set: no limits, in this computer's zone; the default checks). */
  of(profileId: string): ProfileControls
  setLimits(profileId: string, limits: PayoutLimits, by: string): Promise<ProfileControls>
  setPayeeChecks(profileId: string, settings: TripwireSettings, by: string): Promise<ProfileControls>
}

export function createControlsStore(settings: SettingsStore, now: () => Date): ControlsStore {
  let stored: Record<string, StoredControls> | null = null
  /** Why the settings file could not be read: every send is refused with it (no limit is guessed). */
  let unreadable: Error | null = null

  const fresh = (): StoredControls => ({
    limits: { ...NO_LIMITS, timeZone: systemTimeZone() },
    payeeChecks: { multiple: DEFAULT_TRIPWIRE_SETTINGS.multiple, firstPaymentLimits: {} },
    changes: [],
  })

  function of(profileId: string): ProfileControls {
    if (unreadable)
      throw new AppFailure('internal', `The limits could not be read, so nothing is sent: ${unreadable.message}`)
    if (!stored) throw new Error('The controls are read before they were loaded')
    return stored[profileId] ?? fresh()
  }

  async function change(
    profileId: string,
    apply: (current: StoredControls) => { next: StoredControls; lines: Array<Omit<ControlChange, 'at' | 'by'>> },
    by: string,
  ): Promise<ProfileControls> {
    const saved = await settings.update((state) => {
      const current = state.controls[profileId] ?? fresh()
      const { next, lines } = apply(current)
      if (lines.length === 0) return state
      const at = now().toISOString()
      return {
        ...state,
        controls: {
          ...state.controls,
          [profileId]: { ...next, changes: [...current.changes, ...lines.map((line) => ({ at, by, ...line }))] },
        },
      }
    })
    stored = saved.controls
    return of(profileId)
  }

  return {
    async load() {
      try {
        stored ??= (await settings.read()).controls
        unreadable = null
      } catch (error) {
        unreadable = error as Error
        throw error
      }
    },
    of,
    setLimits: (profileId, limits, by) =>
      change(
        profileId,
        (current) => ({ next: { ...current, limits }, lines: limitChanges(current.limits, limits) }),
        by,
      ),
    setPayeeChecks: (profileId, payeeChecks, by) =>
      change(
        profileId,
        (current) => ({
          next: {
            ...current,
            payeeChecks: { multiple: payeeChecks.multiple, firstPaymentLimits: { ...payeeChecks.firstPaymentLimits } },
          },
          lines: payeeCheckChanges(current.payeeChecks, payeeChecks),
        }),
        by,
      ),
  }
}
