/**
 * A released batch verified by reference, and what this desk's journal then says (decision 62).
 * The journal only moves forward: a batch it already has an answer for (accepted, found, refused,
 * final) needs neither a claim nor a verification, since the sender follows the journal; a batch
 * found at the service is journaled as found (processing) only when the journal had it open, never
 * over a state it passed. A batch finished elsewhere (every payout has a final result in the team,
 * or the team completed the run) is followed with no claim and nothing of it is ever sent: found,
 * it is followed; absent, each payout is looked up by its own reference (the service refused the
 * batch, or kept its payouts elsewhere).
 */
import { AppFailure } from '../../../../shared/result'
import type { BulkEndpoints, BulkPayoutRequest } from '../api'
import type { Journal } from '../journal'
import { verifyBatch, verifyItems } from '../bulk/runs'

export interface BatchFollowDeps {
  journal: Journal
  bulkFor(profileId: string): Promise<BulkEndpoints>
}

/** The journal has the service's answer for this batch: the sender follows it, nothing is sent. */
export function answeredInJournal(journal: Journal, reference: string): boolean {
  const state = journal.get(reference)?.state
  return state === 'processing' || state === 'success' || state === 'failed'
}

export type BatchFollow = ReturnType<typeof createBatchFollow>

export function createBatchFollow(deps: BatchFollowDeps) {
  const { journal } = deps

  /** "The service has it": written only over an open record (never back, never past an answer). */
  async function foundForward(reference: string, note: string, data?: Record<string, unknown>): Promise<void> {
    const movement = journal.get(reference)
    if (!movement || answeredInJournal(journal, reference)) return
    await journal.append(reference, { state: 'processing', note, verification: 'found', ...(data ? { data } : {}) })
  }

  async function verified(bulk: BulkEndpoints, reference: string, why: string) {
    const found = await verifyBatch(bulk, reference)
    if (found.found === 'unknown')
      throw new AppFailure(
        'outcome_unknown',
        `Batch ${reference} (${why}) could not be verified, so nothing of it is sent: ${found.note}`,
      )
    return found
  }

  return {
    /**
     * A batch this desk holds the claim of, verified before anything of it is sent: 'found' (it is
     * followed, never sent again) or 'absent' (it may be sent, under the same references).
     */
    async verifyClaimed(profileId: string, reference: string, why: string): Promise<'found' | 'absent'> {
      const found = await verified(await deps.bulkFor(profileId), reference, why)
      if (found.found === 'absent') return 'absent'
      await foundForward(reference, `Claim ${why}: ${found.note}; not sent again`, found.data)
      return 'found'
    },

    /** A batch finished elsewhere, followed by reference with no claim; nothing of it is sent. */
    async followFinished(profileId: string, reference: string, why: string): Promise<void> {
      if (answeredInJournal(journal, reference)) return
      const bulk = await deps.bulkFor(profileId)
      const found = await verified(bulk, reference, why)
      if (found.found !== 'absent') {
        await foundForward(reference, `${why}: ${found.note}; followed, not sent from this desk`, found.data)
        return
      }
      const body = journal.get(reference)?.request as unknown as BulkPayoutRequest | undefined
      const items = body ? await verifyItems(bulk, body) : null
      if (!items)
        throw new AppFailure(
          'outcome_unknown',
          `Batch ${reference} (${why}) is not at the service and its payouts could not all be looked up; nothing of it is sent.`,
        )
      const existing = Object.values(items).filter((finding) => finding !== 'absent').length
      await journal.append(reference, {
        state: 'failed',
        verification: 'absent',
        note:
          existing > 0
            ? `${why}: the service has no such batch; ${existing} of its ${body!.payouts.length} payouts exist under their own references and are followed, the others were not sent`
            : `${why}: the service has no such batch and none of its payouts; nothing of it was paid, and nothing is sent from this desk`,
        ...(existing > 0
          ? { data: { items_exist: Object.entries(items).map(([reference, found]) => ({ reference, found })) } }
          : {}),
      })
    },
  }
}
