/** The settings' public face (decision 094): the settings store's shape and atomic JSON files. */
export { readJsonFile, writeJsonAtomically } from './atomic-json-file'
export type { SettingsStore, StoredControls, StoredProfile, StoredTeamConnection } from './settings-store'
