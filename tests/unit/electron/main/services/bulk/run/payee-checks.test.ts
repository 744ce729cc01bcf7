/**
 * The payee book wired into bulk runs (decisions 108, 109): a paid month-1 run is learnt into the
 * book of its own profile and mode; month 2's rows are checked as the run is made, and a changed
 * account, a new account and an account two payees share are flagged on the rows, none left out;
 * an edit is checked again (the account put back loses its flags). Real RunService over the
 * simulator, the real payee service with its worker.
 */
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { BulkImportResult } from '../../../../../../../shared/domain/bulk'
import {
  createRunPayeeChecks,
  type RunPayeeChecks,
} from '../../../../../../../electron/main/services/bulk/run-payee-checks'
import {
  createPayeesService,
  payeeRunHooks,
  type PayeesService,
} from '../../../../../../../electron/main/services/payees'
import type { TripwireSettings } from '../../../../../../../shared/payees/tripwires'
import { csvBytes, sheetOf, simulatorPayouts } from './harness'
import { sandboxPerTest } from './sandbox-per-test'

const KEY = 'sk_test_payee_checks'
const each = sandboxPerTest(KEY)
const SANDBOX = { profileId: 'sandbox', mode: 'sandbox' as const }

let payees: PayeesService | undefined
afterEach(async () => {
  await payees?.close()
  payees = undefined
})

/** Four employees with their staff numbers (E1 to E4), paid to the harness' accounts. */
function month(tag: string): BulkImportResult {
  const sheet = sheetOf(4, new Set(), tag)
  sheet.items.forEach((item, index) => (item.payee_id = `E${index + 1}`))
  return sheet
}

const kinds = (rows: ReadonlyArray<{ tripwires?: Array<{ kind: string }> }>) =>
  rows.map((row) => (row.tripwires ?? []).map((tripwire) => tripwire.kind))

describe('the payee book in bulk runs', () => {
  it("learns a paid run, then flags the next month's changed, new and shared accounts on their rows", async () => {
    const warnings: string[] = []
    const book = createPayeesService({
      directory: join(each.dir, 'payees'),
      journal: { list: () => [] },
    })
    payees = book
    let checks: RunPayeeChecks | null = null
    const { service } = await each.open({ onRunChanged: (summary) => checks?.runChanged(summary) })
    checks = createRunPayeeChecks(() => service, payeeRunHooks(book, { warn: (m) => warnings.push(m) }), {
      warn: (message) => warnings.push(message),
    })

    const first = month('M1')
    const january = await service.create({ result: first, bytes: csvBytes(first), currency: 'NGN' })
    await service.toReview(january.id)
    await checks.idle()
    // An empty book: every account is new, nothing else is said.
    expect(kinds(service.rows(january.id))).toEqual([
      ['new_account'],
      ['new_account'],
      ['new_account'],
      ['new_account'],
    ])
    await service.submit(january.id)
    await service.idle()
    expect(service.view(january.id).counts.success).toBe(4)
    const learnt = async () => (await book.list(SANDBOX)).total
    for (let tries = 0; tries < 100 && (await learnt()) < 4; tries++) await new Promise((r) => setTimeout(r, 50))
    expect(await learnt()).toBe(4)
    // A rehearsal's payments are in the rehearsal's own book only.
    expect((await book.list({ profileId: 'sandbox', mode: 'live' })).total).toBe(0)

    const second = month('M2')
    const original = second.items[1]!.account_number
    second.items[1]!.account_number = '2000000001' // E2's "new bank details"
    second.items[3]!.account_number = second.items[2]!.account_number // E4 paid to E3's account
    const february = await service.create({ result: second, bytes: csvBytes(second), currency: 'NGN' })
    await checks.idle()
    const rows = service.rows(february.id)
    expect(kinds(rows)).toEqual([
      [],
      ['account_changed', 'new_account'],
      ['shared_account'],
      ['account_changed', 'shared_account'],
    ])
    expect(rows.every((row) => !row.excluded)).toBe(true)
    // Nothing is left out; the changed and shared accounts are held until confirmed (decision 124).
    expect(service.view(february.id).counts).toMatchObject({ excluded: 0, held: 3 })
    expect(service.view(february.id).totals.rows).toBe(1)

    // The account put back: checked again, its flags go.
    await service.editCells(february.id, [{ index: 1, field: 'account_number', value: original }], 'edit')
    await checks.idle()
    expect(kinds(service.rows(february.id))[1]).toEqual([])
    expect(warnings).toEqual([])
  })

  it('a confirmed account is not asked again: a later run of the same profile shows it confirmed, and the book keeps it across a restart', async () => {
    const warnings: string[] = []
    const directory = join(each.dir, 'payees')
    let book = createPayeesService({ directory, journal: { list: () => [] } })
    payees = book
    let checks: RunPayeeChecks | null = null
    const { service } = await each.open({
      onRunChanged: (summary) => checks?.runChanged(summary),
      actor: () => 'ada.accounts',
    })
    checks = createRunPayeeChecks(() => service, payeeRunHooks(book, { warn: (m) => warnings.push(m) }), {
      warn: (message) => warnings.push(message),
    })
    const first = month('C1')
    const october = await service.create({ result: first, bytes: csvBytes(first), currency: 'NGN' })
    await service.toReview(october.id)
    await checks.idle()
    await service.submit(october.id)
    await service.idle()
    for (let tries = 0; tries < 100 && (await book.list(SANDBOX)).total < 4; tries++)
      await new Promise((r) => setTimeout(r, 50))

    const changed = (tag: string) => {
      const sheet = month(tag)
      sheet.items[1]!.account_number = '2000000001'
      return sheet
    }
    const second = changed('C2')
    const november = await service.create({ result: second, bytes: csvBytes(second), currency: 'NGN' })
    await service.toReview(november.id)
    await checks.idle()
    expect(service.view(november.id).counts.held).toBe(1)
    await service.confirmPayee(november.id, 1, { method: 'called_number_on_file', note: 'Rang E2 on file' })
    checks.tellConfirmed({ id: november.id })
    await checks.idle()
    expect(service.view(november.id).counts.held).toBe(0)

    // Another run with the same change, made before November is even sent: not held again.
    const third = changed('C3')
    const again = await service.create({ result: third, bytes: csvBytes(third), currency: 'NGN' })
    await checks.idle()
    const row = service.rows(again.id)[1]!
    expect(row.tripwires?.[0]).toMatchObject({
      kind: 'account_changed',
      confirmed: { by: 'ada.accounts', method: 'called_number_on_file', note: 'Rang E2 on file', runId: november.id },
    })
    expect(service.view(again.id).counts.held).toBe(0)

    // A rehearsal's confirmation stays in its own book; and the book keeps it across a restart.
    await book.close()
    book = createPayeesService({ directory, journal: { list: () => [] } })
    payees = book
    const draft = {
      payeeId: 'E2',
      name: 'Customer 2',
      account: { type: 'bank_account' as const, bank: '044', account: '2000000001' },
      currency: 'NGN',
      amount: '1001.50',
    }
    expect((await book.checkPayout(SANDBOX, draft)).tripwires[0]).toMatchObject({ confirmed: { by: 'ada.accounts' } })
    expect((await book.checkPayout({ profileId: 'sandbox', mode: 'live' }, draft)).tripwires).toEqual([
      { kind: 'new_account', account: '044 2000000001' },
    ])
    expect(warnings).toEqual([])
  })
})

describe('the payee checks when the desk closes', () => {
  it('a check waiting when the desk closes never runs, and says nothing of a closed book', async () => {
    const warnings: string[] = []
    const asked: string[] = []
    const { service } = await each.open()
    const sheet = month('Q1')
    const run = await service.create({ result: sheet, bytes: csvBytes(sheet), currency: 'NGN' })
    await service.toReview(run.id)
    const checks = createRunPayeeChecks(
      () => service,
      {
        checkPayees: async (scope) => {
          asked.push(scope.profileId)
          throw new Error('The payee book is closed')
        },
      },
      { warn: (message) => warnings.push(message) },
    )
    checks.schedule(run.id)
    checks.close()
    await new Promise((resolve) => setTimeout(resolve, 600))
    await checks.idle()
    expect(asked).toEqual([])
    checks.schedule(run.id)
    await checks.idle()
    expect(asked).toEqual([])
    expect(warnings).toEqual([])
  })
})

describe('the payee book catching up at start (decision 166)', () => {
  it("learns a paid run's rows the book never learnt when the runs are told at the next start, each once, and passes over a run it holds", async () => {
    const warnings: string[] = []
    const warn = { warn: (message: string) => warnings.push(message) }
    // The desk that paid the run stopped before its book learnt the rows: no hooks told it anything.
    const { service } = await each.open()
    const sheet = month('K1')
    const run = await service.create({ result: sheet, bytes: csvBytes(sheet), currency: 'NGN' })
    await service.toReview(run.id)
    await service.submit(run.id)
    await service.idle()
    expect(service.view(run.id).counts.success).toBe(4)

    const book = createPayeesService({ directory: join(each.dir, 'payees'), journal: { list: () => [] } })
    payees = book
    let made = 0
    const watched: PayeesService = {
      ...book,
      recordRunPaid: (scope, paid, payments) => book.recordRunPaid(scope, paid, () => (made++, payments())),
    }
    const atStart = () => createRunPayeeChecks(() => service, payeeRunHooks(watched, warn), warn).tellEveryRun()
    atStart()
    for (let tries = 0; tries < 100 && (await book.list(SANDBOX)).total < 4; tries++)
      await new Promise((r) => setTimeout(r, 50))
    const totals = async () => (await book.list(SANDBOX)).payees.map((payee) => payee.accounts[0]?.totals[0]?.count)
    expect(await totals()).toEqual([1, 1, 1, 1])
    expect(made).toBe(1)

    // The next start tells the run again: the book's record says it holds it, so its rows are not even read.
    atStart()
    await new Promise((r) => setTimeout(r, 300))
    expect(made).toBe(1)
    expect(await totals()).toEqual([1, 1, 1, 1])
    // What the book learnt drives the tripwires: E2 paid to another account is a changed account.
    const e2 = sheet.items[1]!
    const elsewhere = await book.checkPayout(SANDBOX, {
      payeeId: 'E2',
      name: e2.customer_name,
      account: { type: 'bank_account', bank: '044', account: '2000000001' },
      currency: 'NGN',
      amount: e2.amount,
    })
    expect(elsewhere.tripwires.map((tripwire) => tripwire.kind)).toEqual(['account_changed', 'new_account'])
    expect(warnings).toEqual([])
  })
})

describe('a check under way when the run is sent', () => {
  it('is stopped: the book is told to stop, nothing is put on the rows, nothing is logged', async () => {
    const warnings: string[] = []
    const signals: AbortSignal[] = []
    let release: () => void = () => undefined
    const { service } = await each.open()
    const sheet = month('S1')
    const run = await service.create({ result: sheet, bytes: csvBytes(sheet), currency: 'NGN' })
    await service.toReview(run.id)
    const checks = createRunPayeeChecks(
      () => service,
      {
        // The book's answer comes only once released: the run is sent meanwhile.
        checkPayees: async (_scope, rows, signal) => {
          if (signal) signals.push(signal)
          await new Promise<void>((resolve) => (release = resolve))
          return rows
            .slice(0, rows.length)
            .map((_row, index) => ({ index, tripwires: [{ kind: 'new_account' as const, account: 'x' }] }))
        },
      },
      { warn: (message) => warnings.push(message) },
    )
    checks.schedule(run.id)
    for (let tries = 0; tries < 100 && signals.length === 0; tries++) await new Promise((r) => setTimeout(r, 20))
    expect(signals).toHaveLength(1)
    expect(signals[0]!.aborted).toBe(false)
    // Send: the run leaves review, and its summary says so to the checks.
    const sent = await service.submit(run.id)
    checks.runChanged(sent)
    expect(signals[0]!.aborted).toBe(true)
    release()
    await checks.idle()
    await service.idle()
    expect(service.rows(run.id).map((row) => row.tripwires)).toEqual([undefined, undefined, undefined, undefined])
    expect(warnings).toEqual([])
  })
})

describe('Send right after the names are checked (decision 169)', () => {
  it('waits for the payee check of the rows as they are: a changed account is held, never sent unconfirmed', async () => {
    const warnings: string[] = []
    const book = createPayeesService({ directory: join(each.dir, 'payees'), journal: { list: () => [] } })
    payees = book
    let checks: RunPayeeChecks | null = null
    let answered = 0
    const hooks = payeeRunHooks(book, { warn: (m) => warnings.push(m) })
    const { service } = await each.open({
      onRunChanged: (summary) => checks?.runChanged(summary),
      payeesChecked: (runId) => checks!.settled(runId),
    })
    checks = createRunPayeeChecks(
      () => service,
      {
        ...hooks,
        // The book answers slowly, as a check of a large run does.
        checkPayees: async (scope, rows, signal) => {
          await new Promise((resolve) => setTimeout(resolve, 300))
          const flagged = await hooks.checkPayees!(scope, rows, signal)
          answered++
          return flagged
        },
      },
      { warn: (message) => warnings.push(message) },
    )
    const first = month('W1')
    const january = await service.create({ result: first, bytes: csvBytes(first), currency: 'NGN' })
    await service.toReview(january.id)
    await service.submit(january.id)
    await service.idle()
    const learnt = async () => (await book.list(SANDBOX)).total
    for (let tries = 0; tries < 100 && (await learnt()) < 4; tries++) await new Promise((r) => setTimeout(r, 50))

    // February: E2's "new bank details". Its names are checked, and Send comes at once.
    const second = month('W2')
    second.items[1]!.account_number = '2000000001'
    const february = await service.create({ result: second, bytes: csvBytes(second), currency: 'NGN' })
    await service.startResolution(february.id)
    while (service.view(february.id).stage !== 'review') await new Promise((resolve) => setImmediate(resolve))
    const before = answered
    const sent = await service.submit(february.id)
    // Send waited for the check of the rows as the names left them, and left the held row out.
    expect(answered).toBeGreaterThan(before)
    expect(kinds(service.rows(february.id))[1]).toEqual(['account_changed', 'new_account'])
    expect(sent.batches.flatMap((batch) => batch.rows)).toEqual([0, 2, 3])
    await service.idle()
    const paid = (await simulatorPayouts(each.sandbox.url, KEY)).map((payout) => payout.reference)
    expect(paid).not.toContain(second.items[1]!.reference)
    expect(warnings).toEqual([])
  })
})

describe('a check whose inputs did not change (decision 174)', () => {
  it('is not made again in review, and is made again for a change of the rows, the book or the settings', async () => {
    const warnings: string[] = []
    let settings: TripwireSettings = { multiple: '3', firstPaymentLimits: {} }
    const book = createPayeesService({
      directory: join(each.dir, 'payees'),
      journal: { list: () => [] },
      settings: () => settings,
    })
    payees = book
    let checks: RunPayeeChecks | null = null
    let made = 0
    const hooks = payeeRunHooks(book, { warn: (m) => warnings.push(m) })
    const { service } = await each.open({
      onRunChanged: (summary) => checks?.runChanged(summary),
      payeesChecked: (runId) => checks!.settled(runId),
    })
    checks = createRunPayeeChecks(
      () => service,
      {
        ...hooks,
        checkPayees: (scope, rows, signal) => (made++, hooks.checkPayees(scope, rows, signal)),
      },
      { warn: (message) => warnings.push(message) },
    )
    const sheet = month('F1')
    const run = await service.create({ result: sheet, bytes: csvBytes(sheet), currency: 'NGN' })
    await service.toReview(run.id)
    await checks.idle()
    const checked = made
    expect(checked).toBeGreaterThan(0)
    expect(kinds(service.rows(run.id))).toEqual([['new_account'], ['new_account'], ['new_account'], ['new_account']])

    // A change the checks do not read (the run's description): the run changed, nothing is checked.
    await service.setOptions(run.id, { description: 'March payroll' })
    await checks.idle()
    expect(made).toBe(checked)

    // A row left out, then back: checked each time, and the row back has its flag again.
    await service.setExcluded(run.id, [2], true)
    await checks.idle()
    expect(made).toBe(checked + 1)
    expect(kinds(service.rows(run.id))[2]).toEqual([])
    await service.setExcluded(run.id, [2], false)
    await checks.idle()
    expect(made).toBe(checked + 2)
    expect(kinds(service.rows(run.id))[2]).toEqual(['new_account'])

    // An account changed and put back: checked each time.
    const account = sheet.items[1]!.account_number
    await service.editCells(run.id, [{ index: 1, field: 'account_number', value: '2000000009' }], 'edit')
    await checks.idle()
    await service.editCells(run.id, [{ index: 1, field: 'account_number', value: account }], 'edit')
    await checks.idle()
    expect(made).toBe(checked + 4)

    // The book learns E1 paid: the next change, though the checks do not read it, is checked
    // against the book as it is now, and E1's account is no longer new.
    const e1 = sheet.items[0]!
    await book.recordPaid(SANDBOX, [
      {
        reference: 'earlier-payout-e1',
        payeeId: 'E1',
        name: e1.customer_name,
        account: { type: 'bank_account', bank: e1.bank_code, account: e1.account_number },
        currency: 'NGN',
        amount: e1.amount,
        paidAt: '2026-10-31T12:00:00.000Z',
      },
    ])
    await service.setOptions(run.id, { description: 'March payroll, again' })
    await checks.idle()
    expect(made).toBe(checked + 5)
    expect(kinds(service.rows(run.id))[0]).toEqual([])

    // The settings change: checked again.
    settings = { multiple: '5', firstPaymentLimits: {} }
    await service.setOptions(run.id, { description: 'March payroll, final' })
    await checks.idle()
    expect(made).toBe(checked + 6)

    // Send waits for no check of its own: nothing it reads changed since the last.
    const sent = await service.submit(run.id)
    expect(made).toBe(checked + 6)
    expect(sent.batches.flatMap((batch) => batch.rows)).toEqual([0, 1, 2, 3])
    await service.idle()
    expect(warnings).toEqual([])
  })
})
