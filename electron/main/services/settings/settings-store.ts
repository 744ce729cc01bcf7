/**
 * Non-secret settings (profiles without their keys, the active profile, the theme) in one JSON
 * file in userData. Keys never enter this file: they live in the keychain.
 */
import { join } from 'node:path'
import { z } from 'zod'
import { PACE_CEILING_MAX } from '../../../../shared/domain/profiles'
import { THEME_PREFERENCES } from '../../../../shared/domain/settings'
import { payeeCheckSettingsSchema } from '../../../../shared/limits/desk-controls'
import { payoutLimitsSchema } from '../../../../shared/limits/payout-limits'
import { readJsonFile, writeJsonAtomically } from './atomic-json-file'

const storedProfileSchema = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  mode: z.enum(['test', 'live']),
  baseUrl: z.string().min(1),
  /** Who pays, as payment advices and run summaries say it (the organisation's name). */
  payerName: z.string().optional(),
})
export type StoredProfile = z.infer<typeof storedProfileSchema>

/** A profile's team connection (decision 38); its password is in the keychain, never here. */
const storedTeamConnectionSchema = z.object({
  host: z.string().min(1),
  port: z.number().int().min(1).max(65535),
  database: z.string().min(1),
  user: z.string().min(1),
  caFile: z.string().min(1).nullable(),
  deskId: z.string().regex(/^[A-Za-z0-9-]{8,64}$/),
})
export type StoredTeamConnection = z.infer<typeof storedTeamConnectionSchema>

const storedLedgerAccountSchema = z.object({ code: z.string().min(1), name: z.string().min(1) })
const storedLedgerMappingSchema = z.object({
  payees: storedLedgerAccountSchema,
  clearing: storedLedgerAccountSchema,
  bankCharges: storedLedgerAccountSchema,
})

/** A profile's limits and payee-check settings, with every change of them (decisions 127, 128). */
const storedControlsSchema = z.object({
  limits: payoutLimitsSchema,
  payeeChecks: payeeCheckSettingsSchema,
  changes: z.array(z.object({ at: z.string(), by: z.string(), setting: z.string(), old: z.string(), new: z.string() })),
})
export type StoredControls = z.infer<typeof storedControlsSchema>

const settingsSchema = z.object({
  version: z.literal(1),
  theme: z.enum(THEME_PREFERENCES),
  activeProfileId: z.string().min(1),
  profiles: z.array(storedProfileSchema),
  /** The built-in Sandbox profile is not stored; its payer name is. */
  sandboxPayerName: z.string().optional(),
  /** By profile id (the Sandbox profile included); absent in files written before team mode. */
  teamConnections: z.record(z.string(), storedTeamConnectionSchema).default({}),
  /** The ledger accounts journal entries are booked to, by profile id (decision 119); absent: the defaults. */
  ledgerAccounts: z.record(z.string(), storedLedgerMappingSchema).default({}),
  /** Limits and payee-check settings by profile id (decision 127); absent: none set yet. */
  controls: z.record(z.string(), storedControlsSchema).default({}),
  /** The ceiling of each profile's pace, by profile id (decision 144); absent: PACE_CEILING_MAX. */
  paceCeilings: z.record(z.string(), z.number().int().min(1).max(PACE_CEILING_MAX)).default({}),
})
export type StoredSettings = z.infer<typeof settingsSchema>

export const SETTINGS_FILE_NAME = 'settings.json'

function defaultSettings(sandboxProfileId: string): StoredSettings {
  return {
    version: 1,
    theme: 'system',
    activeProfileId: sandboxProfileId,
    profiles: [],
    teamConnections: {},
    ledgerAccounts: {},
    controls: {},
    paceCeilings: {},
  }
}

export interface SettingsStore {
  read(): Promise<StoredSettings>
  /** Applies a change and saves it atomically; changes are serialised so none is lost. */
  update(change: (current: StoredSettings) => StoredSettings): Promise<StoredSettings>
}

export function createSettingsStore(userDataDir: string, sandboxProfileId: string): SettingsStore {
  const file = join(userDataDir, SETTINGS_FILE_NAME)
  let cached: StoredSettings | undefined
  let queue: Promise<unknown> = Promise.resolve()

  async function read(): Promise<StoredSettings> {
    cached ??= await readJsonFile(file, settingsSchema, defaultSettings(sandboxProfileId))
    return cached
  }

  return {
    read,
    update(change) {
      const next = queue.then(async () => {
        const updated = change(await read())
        await writeJsonAtomically(file, updated)
        cached = updated
        return updated
      })
      queue = next.catch(() => undefined)
      return next
    },
  }
}
