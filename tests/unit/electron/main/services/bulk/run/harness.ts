/**
 * Test plumbing for bulk runs: a RunService on a user-data folder (its own journal, reconciler
 * and run folders) talking to a simulator over real HTTP, and sheets of generated rows. Used by the
 * unit tests, the crash-resume child process and the benchmarks.
 */
import { join } from 'node:path'
import type { BulkImportResult, BulkItem } from '../../../../../../../shared/domain/bulk'
import type { RunProgress, RunRow, RunSummary } from '../../../../../../../shared/domain/bulk-run'
import type { DesktopNotice } from '../../../../../../../electron/main/adapters/desktop'
import { bulkEndpoints, type BulkEndpoints } from '../../../../../../../electron/main/services/api/bulk'
import { lookupEndpoints, type LookupEndpoints } from '../../../../../../../electron/main/services/api/lookups'
import { createPaymentsClient } from '../../../../../../../electron/main/services/api/payments-client'
import type { AdaptivePace } from '../../../../../../../electron/main/services/api/adaptive-pace'
import { bulkBatchVerifier } from '../../../../../../../electron/main/services/bulk/run/batch-sender'
import { RunService } from '../../../../../../../electron/main/services/bulk/run/run-service'
import type { Checkpoints } from '../../../../../../../electron/main/services/checkpoints'
import { RUNS_FOLDER, RunStore } from '../../../../../../../electron/main/services/bulk/run/run-store'
import { openJournal } from '../../../../../../../electron/main/services/journal/journal'
import type { Journal } from '../../../../../../../electron/main/services/journal/journal'
import { createReconciler } from '../../../../../../../electron/main/services/journal/reconciler'
import type { Reconciler } from '../../../../../../../electron/main/services/journal/reconciler'
import type { LimitGate } from '../../../../../../../electron/main/services/limits'

export interface Harness {
  service: RunService
  journal: Journal
  reconciler: Reconciler
  notices: DesktopNotice[]
  close(): Promise<void>
}

export async function openHarness(options: {
  userDataDir: string
  sandboxUrl: string
  secretKey: string
  timeoutMs?: number
  mode?: 'sandbox' | 'test' | 'live'
  pollMs?: number
  resolveConcurrency?: number
  submitConcurrency?: number
  /** The client's adaptive pace, as the app gives every profile (decision 112). */
  pace?: AdaptivePace
  saveRowsEveryMs?: number
  /** Crash tests' kill points (electron/main/services/checkpoints.ts). */
  checkpoint?: Checkpoints
  /** The gate each batch passes before it leaves (steps/submission.ts). */
  beforeBatchLeaves?: (runId: string, batchReference: string) => Promise<void>
  /** Who acts at the desk (recorded with name acknowledgements). */
  actor?: () => string
  /** The limits the runs pass (decision 127), made over the harness's journal. */
  limits?: (journal: Journal) => LimitGate
  /** Who pays the fees, remembered per profile. */
  feePayer?: {
    recall(profileId: string): Promise<boolean | undefined>
    remember(profileId: string, value: boolean): Promise<void>
  }
  /** A profile's percentage for a repeat's variance review (decision 130). */
  variancePercent?: (profileId: string) => string
  /** Resolves once a run's payee checks are current: Send waits for it (decision 169). */
  payeesChecked?: (runId: string) => Promise<void>
  /** Told when a run could not be read at start (it must never happen). */
  onWarning?: (message: string) => void
  /** Told each summary of a run as the screen is told it. */
  onRunChanged?: (summary: RunSummary) => void
  /** Told each progress of a run as the screen is told it. */
  onProgress?: (runId: string, progress: RunProgress | null) => void
  /** Told each group of changed rows as the screen is told it. */
  onRowsChanged?: (runId: string, rows: RunRow[]) => void
  /** Wraps the endpoints the run uses (to watch or count its requests). */
  wrapApi?: (api: { bulk: BulkEndpoints; lookups: LookupEndpoints }) => {
    bulk: BulkEndpoints
    lookups: LookupEndpoints
  }
}): Promise<Harness> {
  const journal = await openJournal(join(options.userDataDir, 'journal'))
  const client = createPaymentsClient({
    baseUrl: options.sandboxUrl,
    secretKey: options.secretKey,
    timeoutMs: options.timeoutMs ?? 5000,
    ...(options.pace ? { pace: options.pace } : {}),
  })
  const plain = { bulk: bulkEndpoints(client), lookups: lookupEndpoints(client) }
  const { bulk, lookups } = options.wrapApi ? options.wrapApi(plain) : plain
  const reconciler = createReconciler(journal)
  reconciler.register(
    'bulk_batch',
    bulkBatchVerifier(async () => bulk),
    'sent_again',
  )
  const notices: DesktopNotice[] = []
  const service = new RunService({
    store: new RunStore(join(options.userDataDir, RUNS_FOLDER)),
    journal,
    apiFor: async () => ({
      profileId: 'sandbox',
      mode: options.mode ?? 'sandbox',
      bulk,
      lookups,
      ...(options.pace ? { pace: options.pace } : {}),
    }),
    events: {
      runChanged: (summary) => options.onRunChanged?.(summary),
      rowsChanged: (runId, rows) => options.onRowsChanged?.(runId, structuredClone(rows)),
      progress: (runId, progress) => options.onProgress?.(runId, progress ? { ...progress } : null),
    },
    notify: (notice) => notices.push(notice),
    now: () => new Date(),
    pollMs: options.pollMs ?? 50,
    ...(options.resolveConcurrency ? { resolveConcurrency: options.resolveConcurrency } : {}),
    ...(options.submitConcurrency ? { submitConcurrency: options.submitConcurrency } : {}),
    saveRowsEveryMs: options.saveRowsEveryMs ?? 1000,
    ...(options.checkpoint ? { checkpoint: options.checkpoint } : {}),
    ...(options.beforeBatchLeaves ? { beforeBatchLeaves: options.beforeBatchLeaves } : {}),
    ...(options.actor ? { actor: options.actor } : {}),
    ...(options.limits ? { limits: options.limits(journal) } : {}),
    ...(options.feePayer ? { feePayer: options.feePayer } : {}),
    ...(options.variancePercent ? { variancePercent: options.variancePercent } : {}),
    ...(options.payeesChecked ? { payeesChecked: options.payeesChecked } : {}),
    log: {
      warn: (message) => options.onWarning?.(message),
      error: (message) => options.onWarning?.(message),
    },
  })
  return {
    service,
    journal,
    reconciler,
    notices,
    async close() {
      await service.close()
      await journal.close()
    },
  }
}

/**
 * A sheet of `count` rows that all pay (bank 044) except the rows listed in `failing`, which go to
 * bank 011 (the simulator fails them: "Bank is not available in test mode").
 */
export function sheetOf(count: number, failing: ReadonlySet<number> = new Set(), tag = 'T'): BulkImportResult {
  const items: BulkItem[] = Array.from({ length: count }, (_, i) => ({
    row: i + 2,
    reference: `${tag}-row-${String(i + 1).padStart(6, '0')}`,
    amount: `${1000 + i}.50`,
    bank_code: failing.has(i) ? '011' : '044',
    account_number: String(1_000_000_000 + i * 7),
    customer_name: `Customer ${i + 1}`,
    customer_email: `customer${i + 1}@example.com`,
    narration: `Payout ${i + 1}`,
  }))
  return {
    file: 'payouts.csv',
    sheet: 'payouts',
    header: { row: 1, columns: { Reference: 'reference', Amount: 'amount' } },
    rows: count,
    valid: count,
    items,
    errors: [],
    warnings: [],
  }
}

export function csvBytes(result: BulkImportResult): Uint8Array {
  const lines = ['reference,amount,bank_code,account_number,customer_name,customer_email,narration']
  for (const i of result.items)
    lines.push(
      [i.reference, i.amount, i.bank_code, i.account_number, i.customer_name, i.customer_email, i.narration].join(','),
    )
  return new TextEncoder().encode(lines.join('\n'))
}

/** Waits until `done()` holds, polling; fails with `what` after `timeoutMs`. */
export async function waitFor(done: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const until = Date.now() + timeoutMs
  while (!done()) {
    if (Date.now() > until) throw new Error(`Timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** Every payout the simulator holds, from the payout history (limit 100, paged by pointer). */
export async function simulatorPayouts(
  sandboxUrl: string,
  secretKey: string,
): Promise<Array<{ reference: string; status: string; amount: string }>> {
  const all: Array<{ reference: string; status: string; amount: string; pointer: string }> = []
  let after: string | undefined
  for (;;) {
    const url = new URL('/merchant/api/v1/payouts', sandboxUrl)
    url.searchParams.set('limit', '100')
    if (after) url.searchParams.set('starting_after', after)
    const answer = (await (await fetch(url, { headers: { authorization: `Bearer ${secretKey}` } })).json()) as {
      has_more: boolean
      data: Array<{ reference: string; status: string; amount: string; pointer: string }>
    }
    all.push(...answer.data)
    if (!answer.has_more || answer.data.length === 0) break
    after = answer.data.at(-1)!.pointer
  }
  return all
}

export async function sandboxAdmin(
  sandboxUrl: string,
  secretKey: string,
  method: string,
  path: string,
  body?: unknown,
) {
  const response = await fetch(new URL(path, sandboxUrl), {
    method,
    headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  return (await response.json()) as { status: boolean; data: Record<string, unknown> }
}
