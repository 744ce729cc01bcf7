/**
 * The claims of a release: the gate (the first open batch, which of two racing desks wins), each
 * batch's claim committed before it leaves, and the claims asked for ahead in groups (one
 * transaction for up to CLAIM_GROUP batches) so their round trip overlaps the sending.
 *
 * A claim refused because the batch, or the whole run, is finished elsewhere is recognised by the
 * refusal's reason (claim_final, run_completed: decision 86), never by its text: such a batch is
 * followed by reference without a claim (decision 62).
 */
import type { TeamClaim, TeamClaimSummary } from '../../../../shared/domain/team'
import { AppFailure } from '../../../../shared/result'
import { teamRefusalReason } from '../../../../shared/team/refusals'
import type { RunService } from '../bulk/runs'
import type { ReleaseEntry } from './team-release-entry'
import { teamFailure } from './team-errors'
import type { TeamDesk, TeamService } from './team-service'

/** How many batches ahead of the one leaving are claimed (about four rounds of four lanes). */
const CLAIM_AHEAD = 16
/** How many batches one claim transaction claims at most (one commit, one audit entry each). */
const CLAIM_GROUP = 8

export interface ReleaseClaimsDeps {
  team: Pick<TeamService, 'withDesk'>
  runs: Pick<RunService, 'stateOf' | 'rows' | 'plannedBatches'>
  leaseSeconds: number
  onClaim?(ms: number, batches: number): void
}

export type ReleaseClaims = ReturnType<typeof createReleaseClaims>

export function createReleaseClaims(deps: ReleaseClaimsDeps) {
  const { leaseSeconds } = deps

  /** What a claim made means here: held while its batch is sent, verified first when it must be. */
  function heldNow(entry: ReleaseEntry, reference: string, answer: TeamClaim): void {
    entry.held.set(reference, performance.now())
    if (answer.grant === 'takeover' || answer.mustVerifyFirst)
      entry.verifyFirst.set(
        reference,
        answer.previous
          ? `taken over from ${answer.previous.holder} (lease ran out at ${answer.previous.leaseUntil})`
          : 'payouts of it have results already',
      )
  }

  /**
   * Whether these references, refused for this reason, are finished elsewhere: every batch of a run
   * the team has completed (run_completed), or a batch whose claim is done, every payout of it
   * final (claim_final). Such a batch is followed by reference, never claimed or sent.
   */
  function finishedElsewhere(entry: ReleaseEntry, refused: AppFailure, references: string[]): boolean {
    const reason = teamRefusalReason(refused)
    if (reason === 'run_completed') entry.completedElsewhere = true
    else if (reason === 'claim_final') for (const reference of references) entry.finished.add(reference)
    else return false
    return true
  }

  /**
   * The team's claims of the run, refused when another desk holds a live one: that desk is
   * releasing it, and this one sends nothing (nor claims anything ahead) until it stops.
   */
  async function noOtherDeskReleasing(desk: TeamDesk, entry: ReleaseEntry): Promise<TeamClaimSummary[]> {
    const claims = await desk.operations.claims(entry.runId)
    const live = claims.find((c) => c.state === 'held' && c.deskId !== desk.operations.deskId && !c.leaseExpired)
    if (live)
      throw new AppFailure(
        'claim_held',
        `Run ${entry.runId} is being released by ${live.holder} on another desk (claim on ${live.reference} until ${live.leaseUntil}). Nothing was sent from this desk.`,
      )
    return claims
  }

  /** A batch's payouts as the run on this desk plans it. */
  function plannedPayouts(runId: string, reference: string): string[] {
    const rows = deps.runs.rows(runId)
    const batch =
      deps.runs.stateOf(runId).batches.find((b) => b.reference === reference) ??
      deps.runs.plannedBatches(runId).find((b) => b.reference === reference)
    if (!batch) throw new AppFailure('not_found', `Run ${runId} has no batch ${reference}.`)
    return batch.rows.map((i) => rows[i]!.item.reference)
  }

  async function claimBatch(
    desk: TeamDesk,
    entry: ReleaseEntry,
    reference: string,
    known?: TeamClaimSummary,
    /** The batch's payouts when the caller planned it (the gate); else read from the run on this desk. */
    payouts?: string[],
  ): Promise<void> {
    if (known?.state === 'done') {
      entry.finished.add(reference)
      return
    }
    const started = performance.now()
    const answer = await desk.operations.claim({
      runId: entry.runId,
      version: entry.version,
      content: entry.content,
      contentHash: entry.contentHash,
      reference,
      kind: 'batch',
      payouts: payouts ?? plannedPayouts(entry.runId, reference),
      leaseSeconds,
    })
    deps.onClaim?.(performance.now() - started, 1)
    heldNow(entry, reference, answer)
  }

  /** A refusal that says the batch is finished elsewhere is no error (it is followed); any other is. */
  function unlessFinished(entry: ReleaseEntry, reference: string, error: unknown): void {
    const failure = teamFailure(error, `claiming ${reference}`)
    if (!finishedElsewhere(entry, failure, [reference])) throw failure
  }

  /**
   * Claims the first batch not yet done: the desk that commits it releases the run; a desk that
   * finds another desk's live claim is refused before it sends anything.
   */
  async function gate(
    desk: TeamDesk,
    entry: ReleaseEntry,
    planned: ReadonlyArray<{ reference: string; rows: number[] }>,
    payoutsOf: (rows: number[]) => string[],
  ): Promise<void> {
    const claims = await noOtherDeskReleasing(desk, entry)
    entry.gated = Promise.resolve()
    const byReference = new Map(claims.map((c) => [c.reference, c]))
    for (const claim of claims) if (claim.state === 'done') entry.finished.add(claim.reference)
    const first = planned.find((b) => byReference.get(b.reference)?.state !== 'done')
    if (!first) return
    try {
      await claimBatch(desk, entry, first.reference, byReference.get(first.reference), payoutsOf(first.rows))
    } catch (error) {
      unlessFinished(entry, first.reference, error)
    }
    // Trusted as any claim is, for half its lease: a later Check again claims it again.
    void remember(entry, first.reference, Promise.resolve())
  }

  /**
   * Several batches claimed in one transaction of the team database (one commit for all): each
   * is claimed or refused on its own; the answer says, for each reference, what its hook meets
   * (undefined: claimed, or finished elsewhere; an error: refused, or the whole call failed).
   */
  async function claimGroup(entry: ReleaseEntry, references: string[]): Promise<Map<string, unknown>> {
    const outcome = new Map<string, unknown>()
    try {
      await deps.team.withDesk('claiming batches', async (desk) => {
        const state = deps.runs.stateOf(entry.runId)
        const rows = deps.runs.rows(entry.runId)
        const batches = references.map((reference) => {
          const batch = state.batches.find((b) => b.reference === reference)
          if (!batch) throw new AppFailure('not_found', `Run ${entry.runId} has no batch ${reference}.`)
          return { reference, payouts: batch.rows.map((i) => rows[i]!.item.reference) }
        })
        const started = performance.now()
        let answers: Awaited<ReturnType<typeof desk.operations.claimBatches>>
        try {
          answers = await desk.operations.claimBatches({
            runId: entry.runId,
            version: entry.version,
            content: entry.content,
            contentHash: entry.contentHash,
            batches,
            leaseSeconds,
          })
        } catch (error) {
          // The run itself refused (completed elsewhere, say): every batch of it is followed.
          const failure = teamFailure(error, 'claiming batches')
          if (!finishedElsewhere(entry, failure, references))
            for (const reference of references) outcome.set(reference, failure)
          return
        }
        deps.onClaim?.(performance.now() - started, batches.length)
        for (const answer of answers) {
          if ('claim' in answer) heldNow(entry, answer.reference, answer.claim)
          else if (!finishedElsewhere(entry, answer.refused, [answer.reference]))
            outcome.set(answer.reference, answer.refused)
        }
      })
    } catch (error) {
      for (const reference of references) outcome.set(reference, error)
    }
    return outcome
  }

  function remember(entry: ReleaseEntry, reference: string, claimed: Promise<void>): Promise<void> {
    entry.claiming.set(reference, claimed)
    // A claim that failed is asked for again next time; one made is trusted for half its lease
    // (after that the batch's hook claims again: renewed if still this desk's, refused if taken over).
    const forget = () => {
      if (entry.claiming.get(reference) === claimed) entry.claiming.delete(reference)
    }
    claimed.then(
      () => setTimeout(forget, (leaseSeconds * 1000) / 2).unref?.(),
      // Awaited by the batch's hook; one never awaited (the desk stopped) must not be an unhandled rejection.
      forget,
    )
    return claimed
  }

  return {
    gate,

    /**
     * Once per sending attempt that did not start with Release (a resumed run, Check again): the
     * same check as the gate's, so a copy resumed here while another desk releases the run stops
     * at once, rather than claiming batches ahead of that desk.
     */
    checkNoOtherDesk(entry: ReleaseEntry): Promise<void> {
      entry.gated ??= deps.team.withDesk('checking who releases the run', async (desk) => {
        await noOtherDeskReleasing(desk, entry)
      })
      // A refusal is not kept: the next attempt asks again.
      entry.gated.catch(() => (entry.gated = null))
      return entry.gated
    },

    /** One claim, remembered so the batch's hook awaits the one asked for ahead rather than asking again. */
    claimOnce(entry: ReleaseEntry, reference: string): Promise<void> {
      return remember(
        entry,
        reference,
        deps.team.withDesk('claiming a batch', async (desk) => {
          try {
            await claimBatch(desk, entry, reference)
          } catch (error) {
            unlessFinished(entry, reference, error)
          }
        }),
      )
    },

    /**
     * Claims the next batches of the plan ahead of their turn while this one is in flight, several
     * in one transaction (one commit for up to CLAIM_GROUP batches): the claims' round trip then
     * overlaps the sending instead of adding to it, and with several desks releasing at once their
     * commits no longer queue on the team's audit chain batch by batch. Each claim is still
     * committed before its batch leaves: the batch's hook awaits it.
     */
    claimAhead(entry: ReleaseEntry, reference: string): void {
      if (entry.completedElsewhere) return
      const batches = deps.runs.stateOf(entry.runId).batches
      const at = batches.findIndex((b) => b.reference === reference)
      if (at < 0) return
      const window = batches.slice(at + 1, at + 1 + CLAIM_AHEAD).map((b) => b.reference)
      const unclaimed = window.filter(
        (next) => !entry.claiming.has(next) && !entry.verifyFirst.has(next) && !entry.finished.has(next),
      )
      // Asked for in groups: a full group, or what is left when one of the next few would be waited for.
      const soon = window.slice(0, CLAIM_GROUP)
      if (unclaimed.length < CLAIM_GROUP && !unclaimed.some((next) => soon.includes(next))) return
      const group = unclaimed.slice(0, CLAIM_GROUP)
      if (group.length === 0) return
      const answered = entry.ahead.then(() => claimGroup(entry, group))
      entry.ahead = answered.then(() => undefined)
      for (const next of group)
        remember(
          entry,
          next,
          answered.then((outcome) => {
            if (outcome.has(next)) throw outcome.get(next)
          }),
        )
    },

    /** A claim no longer trusted (its renewal was refused): the batch's hook must claim it again. */
    forget(entry: ReleaseEntry, reference: string): void {
      entry.claiming.delete(reference)
      entry.held.delete(reference)
    },
  }
}
