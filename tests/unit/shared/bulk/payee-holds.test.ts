/**
 * Rows held for a confirmation (decision 124): which flags hold a row and what frees it, how the
 * review's readiness and a finished run's headline count held rows, what the confirmation's input
 * accepts, and how a flag confirmed in the payee book reads.
 */
import { describe, expect, it } from 'vitest'
import type { RunRow } from '../../../../shared/domain/bulk-run'
import { holdWords, isHeld } from '../../../../shared/bulk/payee-holds'
import { sendReadiness } from '../../../../shared/bulk/send-readiness'
import { tallyRows } from '../../../../shared/bulk/run-tally'
import { runOutcomeOf } from '../../../../shared/bulk/run-outcome'
import { confirmationInputSchema, type PayeeConfirmation } from '../../../../shared/payees/confirmations'
import { checkPayments, explainTripwire, type Tripwire } from '../../../../shared/payees/tripwires'
import { PayeeBook } from '../../../../electron/main/services/payees/payee-book'

const CHANGED: Extract<Tripwire, { kind: 'account_changed' }> = {
  kind: 'account_changed',
  account: '044 2000000001',
  lastAccounts: ['044 1000000007'],
  lastPaidAt: '2026-10-31T10:00:00.000Z',
  identifiedBy: 'id',
}
const SHARED: Extract<Tripwire, { kind: 'shared_account' }> = {
  kind: 'shared_account',
  account: '044 1000000014',
  others: [{ name: 'Customer 3', where: 'sheet', rows: [4] }],
}
const NEW: Tripwire = { kind: 'new_account', account: '044 2000000001' }

const CONFIRMATION: PayeeConfirmation = {
  id: 'c1',
  method: 'called_number_on_file',
  note: 'Spoke to Ada on 0803 on file',
  by: 'ada',
  at: '2026-11-27T10:15:00.000Z',
  accountKey: 'bank:044:2000000001',
  account: '044 2000000001',
  payeeKey: 'id:e2',
  name: 'Customer 2',
  kinds: ['account_changed'],
}

function row(index: number, tripwires?: Tripwire[], extra: Partial<RunRow> = {}): RunRow {
  return {
    index,
    item: {
      row: index + 2,
      reference: `R-${index}`,
      amount: `${index + 1}00.00`,
      bank_code: '044',
      account_number: String(1_000_000_000 + index * 7),
      customer_name: `Customer ${index + 1}`,
      customer_email: '',
      narration: 'Pay',
    },
    excluded: false,
    errors: [],
    warnings: [],
    resolution: 'matched',
    status: 'not_sent',
    ...(tripwires ? { tripwires } : {}),
    ...extra,
  }
}

describe('which rows are held', () => {
  it('holds a changed or a shared account, not a new account, a name drift or an unusual amount alone', () => {
    expect(isHeld(row(0, [CHANGED, NEW]))).toBe(true)
    expect(isHeld(row(1, [SHARED]))).toBe(true)
    expect(isHeld(row(2, [NEW]))).toBe(false)
    expect(isHeld(row(3))).toBe(false)
    expect(holdWords(row(0, [CHANGED, NEW]))).toBe('Held: account changed, awaiting confirmation')
    expect(holdWords(row(0, [CHANGED, SHARED]))).toBe('Held: account changed, shared account, awaiting confirmation')
  })

  it('frees a row with its own confirmation, or a flag the payee book saw confirmed; a row left out or in error is not held', () => {
    expect(isHeld(row(0, [CHANGED, SHARED], { confirmation: CONFIRMATION }))).toBe(false)
    const seen = { at: CONFIRMATION.at, by: 'ada', method: 'in_person' as const }
    expect(isHeld(row(0, [{ ...CHANGED, confirmed: seen }, NEW]))).toBe(false)
    // Confirmed for one flag, not the other: still held.
    expect(isHeld(row(0, [{ ...CHANGED, confirmed: seen }, SHARED]))).toBe(true)
    expect(isHeld(row(0, [CHANGED], { excluded: true, excludedWhy: 'by_hand' }))).toBe(false)
    expect(
      isHeld(row(0, [CHANGED], { errors: [{ row: 2, column: 'amount', code: 'amount_invalid', message: 'x' }] })),
    ).toBe(false)
  })

  it('counts held rows by kind, and only a live run is refused for them', () => {
    const rows = [row(0, [CHANGED, NEW]), row(1, [SHARED]), row(2, [CHANGED, SHARED]), row(3, [NEW])]
    const rehearsal = sendReadiness(rows, 'sandbox')
    expect(rehearsal.held).toEqual({ count: 3, accountChanged: 2, sharedAccount: 2, sheetRows: [2, 3, 4] })
    expect(rehearsal.rows).toBe(1)
    expect(rehearsal.held.count).toBe(3)
    expect(rehearsal.refusal).toBeNull()
    const live = sendReadiness(rows, 'live')
    expect(live.refusal).toBe(
      '3 rows are held for a changed or shared account (sheet rows 2, 3, 4): record how each account was confirmed, or exclude those rows, before sending a live run.',
    )
  })

  it("counts a finished rehearsal's held rows, with their amount, as held and not sent", () => {
    const rows = [row(0, [CHANGED], { status: 'success' }), row(1, undefined, { status: 'success' }), row(2, [SHARED])]
    const tally = tallyRows(rows, false)
    expect(tally.places.held).toEqual({ rows: 1, amount: '300.00' })
    expect(tally.places.paid.rows).toBe(2)
    const outcome = runOutcomeOf(tally, 'NGN')
    expect(outcome.allPaid).toBe(false)
    expect(outcome.headline).toContain('2 of 3 rows paid')
    expect(outcome.headline).toContain(
      '1 held, not sent: awaiting confirmation of a changed or shared account (300.00 NGN)',
    )
  })
})

describe('what a confirmation accepts', () => {
  it('takes a method from the list; "other" needs a note; a note with a card number is refused', () => {
    expect(confirmationInputSchema.safeParse({ method: 'in_person' }).success).toBe(true)
    expect(confirmationInputSchema.safeParse({ method: 'signed_letter', note: 'Letter of 20 Nov' }).success).toBe(true)
    const other = confirmationInputSchema.safeParse({ method: 'other', note: '  ' })
    expect(other.success).toBe(false)
    expect(other.error?.issues[0]).toMatchObject({ path: ['note'] })
    expect(confirmationInputSchema.safeParse({ method: 'other', note: 'Video call with the director' }).success).toBe(
      true,
    )
    expect(confirmationInputSchema.safeParse({ method: 'e-mail' }).success).toBe(false)
    expect(confirmationInputSchema.safeParse({ method: 'in_person', note: 'card 4111 1111 1111 1111' }).success).toBe(
      false,
    )
    expect(confirmationInputSchema.safeParse({ method: 'in_person', extra: 1 }).success).toBe(false)
  })
})

describe('a flag confirmed before', () => {
  it('carries the confirmation the payee book holds for the payee and the account, and says so', () => {
    const book = new PayeeBook()
    book.add({
      reference: 'JAN-2',
      paidAt: '2026-10-31T10:00:00.000Z',
      runId: 'october',
      payeeId: 'E2',
      name: 'Customer 2',
      account: { type: 'bank_account', bank: '044', account: '1000000007' },
      currency: 'NGN',
      amount: '200.00',
    })
    const draft = {
      payeeId: 'E2',
      name: 'Customer 2',
      account: { type: 'bank_account' as const, bank: '044', account: '2000000001' },
      currency: 'NGN',
      amount: '200.00',
    }
    const before = checkPayments([draft], book)[0]!
    expect(before.tripwires[0]).toMatchObject({ kind: 'account_changed' })
    expect(before.tripwires[0]).not.toHaveProperty('confirmed')

    expect(book.addConfirmation({ ...CONFIRMATION, payeeKey: before.payee.key })).toBe(true)
    expect(book.addConfirmation({ ...CONFIRMATION, payeeKey: before.payee.key })).toBe(false)
    const after = checkPayments([draft], book)[0]!
    expect(after.tripwires[0]).toMatchObject({
      kind: 'account_changed',
      confirmed: { by: 'ada', method: 'called_number_on_file', at: CONFIRMATION.at },
    })
    expect(explainTripwire(after.tripwires[0]!)).toBe(
      'Account changed: last paid on 2026-10-31 to 044 1000000007, now 044 2000000001 (confirmed on 2026-11-27 by ada, called the payee on a number already on file (Spoke to Ada on 0803 on file))',
    )
    // Another payee on the same account is not covered by it.
    const other = checkPayments([{ ...draft, payeeId: 'E9', name: 'Someone Else' }], book)[0]!
    expect(other.tripwires.some((tripwire) => 'confirmed' in tripwire)).toBe(false)
  })
})
