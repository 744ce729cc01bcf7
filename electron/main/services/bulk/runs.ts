/**
 * Bulk runs' public face (decision 092): what other services and the app's wiring may use of bulk.
 * A service outside services/bulk imports bulk only from here (the lint rule of decision 094).
 *
 * - the domain (its channels) and the hooks another mode adds to a run's life (RunHooks);
 * - the runs themselves (RunService, read and driven through its methods);
 * - a run's content (RunContent: what it pays; `contentOf`, and `createFromContent` for the way
 *   back), and the plan of batches such content makes, known before the run is written;
 * - a batch verified by reference (what a desk that did not send a batch asks the service).
 */
export { createBulkDomain } from './bulk-domain'
export type { BulkDomain, BulkDomainOptions } from './bulk-domain'
export type { PaidRun, RunHooks } from './run-hooks'
export { RUNS_FOLDER } from './run/run-store'
export type { CreateRunInput, RunService } from './run/run-service'
export type { RunState } from './run/run-store'
export type { RunContent } from '../../../../shared/domain/bulk-run'
export { plannedFromContent, samePlan } from './run/run-content'
export type { PlannedBatch } from './run/run-content'
export { isSettled } from './run/batch-items'
export { verifyBatch, verifyItems } from './run/batch-sender'
