/**
 * What every domain service is built from: the user data folder, the log, the event sink, the
 * profiles and their API clients, the journal with its reconciler, and the desktop adapters.
 * Built once by app-services.ts; each domain's handlers take what they need from it.
 */
import type { EventName, EventPayload } from '../../../shared/ipc/contract'
import type { DesktopAdapters } from '../adapters/desktop'
import type { PaymentsApi } from './api'
import type { Checkpoints } from './checkpoints'
import type { Journal } from './journal/journal'
import type { Reconciler } from './journal/reconciler'
import type { AppLog } from './log/redacting-log'
import type { ProfileCredentials, ProfileService } from './profiles/profile-service'

export type EventSink = <E extends EventName>(event: E, payload: EventPayload<E>) => void

/** The API of one profile, with who it is (never its keys). */
export interface ProfileApi {
  profileId: string
  mode: ProfileCredentials['mode']
  api: PaymentsApi
}

export interface ServiceContext {
  userDataDir: string
  log: AppLog
  emit: EventSink
  profiles: ProfileService
  /** The payments API of a profile: the active one when none is named. */
  apiFor(profileId?: string): Promise<ProfileApi>
  journal: Journal
  reconciler: Reconciler
  desktop: DesktopAdapters
  /** The clock, injectable for tests. */
  now(): Date
  /** Crash tests' kill points (checkpoints.ts); absent in the app. */
  checkpoint?: Checkpoints
}
