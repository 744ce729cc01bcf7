/** The team service's public face to the other services (decision 094): what they may name of it. */
export type { TeamService, TeamDesk } from './team-service'
export type { TeamOperations } from './team-operations'
export type { TeamReconPeriod } from './team-recon-operations'
