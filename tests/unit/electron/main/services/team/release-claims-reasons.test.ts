/**
 * A claim refused by the team database is read by its reason, never its text (decision 86): a
 * batch whose claim is final, or any batch of a run completed elsewhere, is followed without a
 * claim; every other refusal stops the batch. The database's answers are made here as node-postgres
 * makes them (a DatabaseError with the SQLSTATE and the DETAIL), with texts that say nothing.
 */
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { createReleaseClaims } from '../../../../../../electron/main/services/team/team-release-claims'
import type { ReleaseClaimsDeps } from '../../../../../../electron/main/services/team/team-release-claims'
import { newReleaseEntry } from '../../../../../../electron/main/services/team/team-release-entry'
import type { TeamDesk } from '../../../../../../electron/main/services/team/team-service'
import { sampleContent } from './fixtures'

function refusedBy(sqlstate: string, reason: string): pg.DatabaseError {
  const error = new pg.DatabaseError('(a text nobody reads)', 0, 'error')
  error.code = sqlstate
  error.detail = reason
  return error
}

function claimsRefusedWith(error: pg.DatabaseError) {
  const content = sampleContent(2)
  const entry = newReleaseEntry('run-1', 1, content, 'a'.repeat(64))
  const desk = {
    operations: {
      claim: () => Promise.reject(error),
      claimBatches: () => Promise.reject(error),
    },
  } as unknown as TeamDesk
  const deps: ReleaseClaimsDeps = {
    team: { withDesk: (_during, work) => work(desk) } as ReleaseClaimsDeps['team'],
    runs: {
      stateOf: () => ({ batches: [{ reference: 'run-1-B0001', rows: [0, 1] }] }),
      rows: () => content.rows.map((row) => ({ item: { reference: row.reference } })),
    } as unknown as ReleaseClaimsDeps['runs'],
    leaseSeconds: 60,
  }
  return { entry, claims: createReleaseClaims(deps) }
}

describe('a refused claim, by its reason', () => {
  it('claim_final: the batch is finished elsewhere and followed, not an error', async () => {
    const { entry, claims } = claimsRefusedWith(refusedBy('PT409', 'claim_final'))
    await expect(claims.claimOnce(entry, 'run-1-B0001')).resolves.toBeUndefined()
    expect([...entry.finished]).toEqual(['run-1-B0001'])
    expect(entry.completedElsewhere).toBe(false)
  })

  it('run_completed: every batch of the run is followed', async () => {
    const { entry, claims } = claimsRefusedWith(refusedBy('PT409', 'run_completed'))
    await expect(claims.claimOnce(entry, 'run-1-B0001')).resolves.toBeUndefined()
    expect(entry.completedElsewhere).toBe(true)
  })

  it('any other conflict stops the batch, with its reason for the caller', async () => {
    for (const reason of ['payout_claimed', 'version_stale', 'run_not_approved']) {
      const { entry, claims } = claimsRefusedWith(refusedBy('PT409', reason))
      await expect(claims.claimOnce(entry, 'run-1-B0001')).rejects.toMatchObject({
        code: 'conflict',
        details: { sqlstate: 'PT409', reason },
      })
      expect(entry.finished.size).toBe(0)
      expect(entry.completedElsewhere).toBe(false)
    }
  })
})
