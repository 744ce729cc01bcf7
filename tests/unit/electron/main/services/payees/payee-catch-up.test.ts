/**
 * What the payee book learnt, recorded, and caught up at each start (decision 166), on real files
 * with the real worker: a single payout or a run's paid rows whose learn was cut short (a close, a
 * crash) is learnt at the next start; a source the record says the book holds is passed over; a
 * payment learnt twice (the record lost) counts once in the payee's totals and usual amount; a close
 * waits for the learns under way, and past its bound the next start learns what they missed.
 */
import { readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Journal } from '../../../../../../electron/main/services/journal/journal'
import {
  type PaidPayment,
  type PayeesService,
  type PaymentToCheck,
} from '../../../../../../electron/main/services/payees'
import { payeeDesks } from './payee-desk'

const LIVE = { profileId: 'acme-live', mode: 'live' as const }

const { desk, service } = payeeDesks('payee-catch-up-')

/** A single payout that succeeded, in the journal only: the desk stopped before the book learnt it. */
async function paidInJournalOnly(journal: Journal, reference: string, name: string, account: string) {
  await journal.record({
    reference,
    kind: 'payout',
    profileId: LIVE.profileId,
    mode: LIVE.mode,
    request: {
      reference,
      destination: {
        type: 'bank_account',
        amount: 2000,
        currency: 'NGN',
        bank_account: { bank: '058', account },
        customer: { name },
      },
    },
  })
  await journal.append(reference, { state: 'sent', note: 'Sent.' })
  await journal.append(reference, { state: 'success', note: 'Paid.' })
}

/** Employee E17's pay in `run`, one row each month. */
const pay = (run: string, reference: string, amount = '150000.00'): PaidPayment => ({
  reference,
  paidAt: `2026-${run}-27T10:00:00.000Z`,
  runId: `run-${run}`,
  payeeId: 'E17',
  name: 'Ada Obi',
  account: { type: 'bank_account', bank: '044', account: '0123456789' },
  currency: 'NGN',
  amount,
})

/** A run telling its paid rows as bulk/run-payee-checks.ts does: `paid` of them so far, these now. */
const tell = (payees: PayeesService, runId: string, paid: number, payments: PaidPayment[]) =>
  payees.recordRunPaid(LIVE, { id: runId, paidRows: paid }, () => payments)

const draft = (amount: string, account = '0123456789'): PaymentToCheck => ({
  name: 'Ada Obi',
  payeeId: 'E17',
  account: { type: 'bank_account', bank: '044', account },
  currency: 'NGN',
  amount,
})

const totalsOf = async (payees: PayeesService) => (await payees.list(LIVE)).payees.map((p) => p.accounts[0]?.totals)

describe('single payouts the book lacks', () => {
  it('are learnt at the next start, and a start after that learns nothing again', async () => {
    const { userData, journal } = await desk()
    await paidInJournalOnly(journal, 'PAY-1', 'Musa Bello', '0011223344')
    const first = service(userData, journal)
    expect(await first.start()).toEqual({ scopes: 1, payments: 1 })
    await first.close()

    // Paid while the book's learn was cut short: only the journal has it.
    await paidInJournalOnly(journal, 'PAY-2', 'Chidi Eze', '0022334455')
    const second = service(userData, journal)
    expect(await second.start()).toEqual({ scopes: 1, payments: 1 })
    expect((await second.list(LIVE)).payees.map((payee) => payee.name).sort()).toEqual(['Chidi Eze', 'Musa Bello'])
    await second.close()

    expect(await service(userData, journal).start()).toEqual({ scopes: 0, payments: 0 })
    const record = JSON.parse(await readFile(join(userData, 'payees', 'learnt.json'), 'utf8')) as object
    expect(record).toMatchObject({ version: 1, journalThrough: expect.any(Number) })
  })
})

describe("a run's paid rows the book lacks", () => {
  it('are learnt when the run tells them at the next start; a run the book holds whole is passed over unread', async () => {
    const { userData, journal } = await desk()
    const before = service(userData, journal)
    expect(await tell(before, 'run-02', 1, [pay('02', 'FEB-1')])).toBe(1)
    // Row 2 was paid, but the desk stopped before telling the book.
    await before.close()

    const after = service(userData, journal)
    // At a start the run tells all its paid rows: the one learnt is counted once, the other learnt.
    expect(
      await tell(after, 'run-02', 2, [
        pay('02', 'FEB-1'),
        { ...pay('02', 'FEB-2'), name: 'Musa Bello', payeeId: 'E18' },
      ]),
    ).toBe(1)
    expect((await after.list(LIVE)).total).toBe(2)
    await after.close()

    const again = service(userData, journal)
    let made = 0
    const unread = () => {
      made++
      return [pay('02', 'FEB-1')]
    }
    expect(await again.recordRunPaid(LIVE, { id: 'run-02', paidRows: 2 }, unread)).toBe(0)
    expect(made).toBe(0)
  })
})

describe('learning the same payments again', () => {
  it("counts each once: with the record lost every source is learnt again, and the payee's totals and usual amount stay", async () => {
    const { userData, journal } = await desk()
    const first = service(userData, journal)
    for (const month of ['01', '02', '03'])
      expect(await tell(first, `run-${month}`, 1, [pay(month, `R-${month}`)])).toBe(1)
    await first.close()
    await rm(join(userData, 'payees', 'learnt.json'))

    const again = service(userData, journal)
    for (const month of ['01', '02', '03'])
      expect(await tell(again, `run-${month}`, 1, [pay(month, `R-${month}`)])).toBe(0)
    expect(await again.recordPaid(LIVE, [pay('03', 'R-03')])).toBe(0)
    expect(await totalsOf(again)).toEqual([[{ currency: 'NGN', count: 3, total: '450000.00' }]])
    // The usual amount is still 150,000 (three payments, not six): three times it is not unusual, a kobo more is.
    expect((await again.checkPayout(LIVE, draft('450000.00'))).tripwires).toEqual([])
    expect((await again.checkPayout(LIVE, draft('450000.01'))).tripwires.map((t) => t.kind)).toEqual(['unusual_amount'])
    // Her account is known: paying her elsewhere is a changed account.
    expect((await again.checkPayout(LIVE, draft('150000.00', '0999999999'))).tripwires.map((t) => t.kind)).toEqual([
      'account_changed',
      'new_account',
    ])
  })
})

describe('closing', () => {
  it('waits for the learns under way: what was told before the close is in the book and its record after', async () => {
    const { userData, journal } = await desk()
    const payees = service(userData, journal)
    const learning = tell(payees, 'run-01', 2, [pay('01', 'JAN-1'), { ...pay('01', 'JAN-2'), payeeId: 'E18' }])
    await payees.close()
    await expect(learning).resolves.toBe(2)

    const restarted = service(userData, journal)
    let made = 0
    expect(await restarted.recordRunPaid(LIVE, { id: 'run-01', paidRows: 2 }, () => (made++, []))).toBe(0)
    expect(made).toBe(0)
    expect((await restarted.list(LIVE)).total).toBe(2)
  })

  it('past its bound, ends the worker anyway; the next start learns what the cut learn missed', async () => {
    const { userData, journal } = await desk()
    const payees = service(userData, journal, 0)
    const learning = tell(payees, 'run-01', 1, [pay('01', 'JAN-1')])
    await payees.close()
    await expect(learning).rejects.toThrow('The payee book is closed')

    const restarted = service(userData, journal)
    expect(await tell(restarted, 'run-01', 1, [pay('01', 'JAN-1')])).toBe(1)
    expect(await totalsOf(restarted)).toEqual([[{ currency: 'NGN', count: 1, total: '150000.00' }]])
  })
})
