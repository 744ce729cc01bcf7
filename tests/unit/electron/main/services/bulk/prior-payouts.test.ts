/**
 * The payment memory of the desk (decision 49): what this profile sent in its own mode makes a
 * row "already paid"; a Sandbox or test-mode rehearsal of the same sheet, or another profile's
 * payouts, never do.
 */
import { describe, expect, it } from 'vitest'
import type { MovementView } from '../../../../../../shared/domain/journal'
import { journalPriorPayouts } from '../../../../../../electron/main/services/bulk/prior-payouts'

function batchOf(profileId: string, profileMode: MovementView['profileMode'], reference: string): MovementView {
  return {
    reference,
    kind: 'bulk_batch',
    profileId,
    profileMode,
    runId: `RUN-${reference}`,
    request: {
      batch_reference: reference,
      currency: 'NGN',
      payouts: [
        { reference: `${reference}-1`, amount: 1500, bank_account: { bank_code: '058', account_number: '0123456789' } },
      ],
    },
    state: 'success',
    createdAt: '2026-03-31T10:00:00.000Z',
    updatedAt: '2026-03-31T10:00:00.000Z',
    timeline: [],
  }
}

describe("the desk's payment memory", () => {
  const journal = {
    list: () => [
      batchOf('sandbox', 'sandbox', 'SBX'),
      batchOf('acme-test', 'test', 'TST'),
      batchOf('acme-live', 'live', 'LIV'),
      batchOf('other-live', 'live', 'OTH'),
    ],
  }

  it('holds only the payouts of the profile it is asked for, in its mode', () => {
    const label = (runId: string) => `${runId}.csv`
    expect(journalPriorPayouts(journal, label, { profileId: 'acme-live', mode: 'live' })).toEqual([
      {
        reference: 'LIV-1',
        bank_code: '058',
        account_number: '0123456789',
        amount: '1500',
        sentAt: '2026-03-31T10:00:00.000Z',
        runLabel: 'RUN-LIV.csv',
      },
    ])
    expect(
      journalPriorPayouts(journal, label, { profileId: 'sandbox', mode: 'sandbox' }).map((p) => p.reference),
    ).toEqual(['SBX-1'])
    // A profile asked about in another mode than its payouts' (never the case for one profile): nothing.
    expect(journalPriorPayouts(journal, label, { profileId: 'acme-test', mode: 'live' })).toEqual([])
  })
})
