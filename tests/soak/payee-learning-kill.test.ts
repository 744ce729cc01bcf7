/**
 * The payee book learns every paid row exactly once across a SIGKILL mid-learn (decision 166): the
 * real desk (desk-process.ts) in its own process pays a bulk run, or a single payout, against the
 * Sandbox in another process, and kills itself as the book is asked to learn the paid rows
 * ('payees:learning': nothing of them learnt yet) or once the book wrote them but before its record
 * said so ('payees:learnt'). Started again on the same user data, the desk finishes what it was
 * doing, and the book holds each payment once: one ledger line each, each payee's count 1 with its
 * exact amount, and the tripwires see them (a repeat to another account is a changed account, four
 * times the amount is unusual). Before decision 166 the book never learnt what the kill cut off.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunRow, RunView } from '../../shared/domain/bulk-run'
import { needsNameAcknowledgement } from '../../shared/domain/bulk-run'
import type { MovementView } from '../../shared/domain/journal'
import type { BulkImportAnswer, BulkOpened } from '../../shared/ipc/channels/bulk'
import type { PaymentTripwires } from '../../shared/payees/tripwires'
import type { PayeesPage } from '../../shared/payees/payee-view'
import type { Result } from '../../shared/result'
import type { Checkpoint } from '../../electron/main/services/checkpoints'
import { DeskGone, startDeskProcess, startSandboxProcess, type DeskProcess, type SandboxProcess } from './processes'

let sandbox: SandboxProcess
let dir: string
/** The OS keychain's stand-ins, outside the folders the run's secret scan reads (as the soak's). */
let keysDir: string

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'payee-learning-kill-'))
  keysDir = await mkdtemp(join(process.env['PAYOUT_DESK_REAL_TMPDIR'] ?? tmpdir(), 'payee-learning-kill-keys-'))
  sandbox = await startSandboxProcess({ stateFile: join(dir, 'sandbox-state.jsonl'), settleMs: 50 })
  await sandbox.request('POST', '/__sandbox/balances', { currency: 'NGN', amount: '10000000.00' })
}, 60_000)

afterAll(async () => {
  await sandbox?.stop()
  if (keysDir) await rm(keysDir, { recursive: true, force: true })
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

function must<T>(result: Result<T>, what: string): T {
  if (!result.ok) throw new Error(`${what}: ${result.error.code} ${result.error.message}`)
  return result.data
}

interface Payee {
  name: string
  email: string
  account: string
  amount: string
}

/** `count` payees, each paid once, to bank 044 (the Sandbox pays it). */
function payeesOf(tag: string, count: number): Payee[] {
  return Array.from({ length: count }, (_, i) => ({
    name: `Payee ${tag} ${i + 1}`,
    email: `${tag.toLowerCase()}${i + 1}@example.com`,
    account: String(2_100_000_000 + i * 13),
    amount: `${1000 + i * 250}.25`,
  }))
}

/** A desk on its own user data, killing itself at `killAt` (its first passage) when given. */
const deskOn = (userDataDir: string, killAt?: Checkpoint): Promise<DeskProcess> =>
  startDeskProcess({
    userDataDir,
    keychainFile: join(keysDir, `${basename(userDataDir)}.json`),
    sandboxUrl: sandbox.url,
    ...(killAt ? { killAt } : {}),
  })

/** Imports the payees as a sheet and does what the review asks until the run is sent; answers its id. */
async function sendRun(desk: DeskProcess, tag: string, payees: Payee[]): Promise<string> {
  const file = join(dir, `${tag}.csv`)
  const lines = payees.map((p, i) =>
    [
      `${tag}-PAY-${String(i + 1).padStart(3, '0')}`,
      p.amount,
      '044',
      p.account,
      p.name,
      p.email,
      `Pay ${tag} ${i + 1}`,
    ].join(','),
  )
  await writeFile(
    file,
    ['reference,amount,bank_code,account_number,customer_name,customer_email,narration', ...lines].join('\n'),
  )
  const opened = must(
    await desk.call<BulkOpened>('bulk:drop', { file: { name: `${tag}.csv`, ref: file } }),
    'bulk:drop',
  )
  const sheet = opened.summary.sheets.find((each) => each.name === opened.summary.selectedSheet)!
  const answer = must(
    await desk.call<BulkImportAnswer>('bulk:import', {
      importId: opened.importId,
      sheet: sheet.name,
      headerRow: sheet.headerRow,
      mapping: [...sheet.mapping!],
      currency: 'NGN',
    }),
    'bulk:import',
  )
  if (answer.kind !== 'run') throw new Error('the sheet asked for bank names')
  const runId = answer.run.id
  for (let step = 0; step < 300; step++) {
    const run = must(await desk.call<RunView>('bulk:run', { runId }), 'bulk:run')
    if (['submitting', 'monitoring', 'completed'].includes(run.stage)) return runId
    if (run.progress) await sleep(100)
    else if (run.stage === 'resolving') must(await desk.call('bulk:review', { runId }), 'bulk:review')
    else if (run.stage === 'review' && run.readiness?.unchecked.count)
      must(await desk.call('bulk:resolve', { runId }), 'bulk:resolve')
    else if (run.stage === 'review' && run.readiness?.unacknowledged.count) {
      const rows = must(await desk.call<RunRow[]>('bulk:rows', { runId }), 'bulk:rows')
      const indexes = rows.filter(needsNameAcknowledgement).map((row) => row.index)
      must(await desk.call('bulk:acknowledgeNames', { runId, indexes }), 'bulk:acknowledgeNames')
    } else if (run.stage === 'review' && run.readiness?.refusal === null)
      must(await desk.call('bulk:submit', { runId }), 'bulk:submit')
    else {
      const rows = must(await desk.call<RunRow[]>('bulk:rows', { runId }), 'bulk:rows')
      const findings = rows.flatMap((row) => row.errors.map((error) => error.message))
      throw new Error(`the run cannot be sent: ${run.stage} ${run.readiness?.refusal ?? ''} ${findings.join('; ')}`)
    }
  }
  throw new Error('the run was never sent')
}

/** Waits until `done()` answers true, asking every 100 ms, for at most `timeoutMs`. */
async function until(done: () => Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const ends = Date.now() + timeoutMs
  while (!(await done())) {
    if (Date.now() > ends) throw new Error(`timed out waiting for ${what}`)
    await sleep(100)
  }
}

/** Calls until the desk is gone (it killed itself); answers the checkpoint it died at. */
async function killedWhile(desk: DeskProcess, work: () => Promise<unknown>): Promise<Checkpoint | null> {
  try {
    await work()
    await until(async () => !desk.alive(), 'the desk to kill itself', 60_000)
  } catch (error) {
    if (!(error instanceof DeskGone)) throw error
  }
  return (await desk.ended).killedAt
}

const page = async (desk: DeskProcess) =>
  must(await desk.call<PayeesPage>('payees:list', { view: { search: '' }, offset: 0, limit: 200 }), 'payees:list')

/** The lines of the one test-mode ledger (userData/payees/<profile>.test.jsonl); none before its first line. */
async function ledgerLines(userDataDir: string): Promise<string[]> {
  const folder = join(userDataDir, 'payees')
  const ledger = (await readdir(folder)).find((name) => name.endsWith('.test.jsonl'))
  // The book lists a payment a moment before its line is appended, the first one included.
  if (!ledger) return []
  return (await readFile(join(folder, ledger), 'utf8')).split('\n').filter(Boolean)
}

const destination = (payee: Payee, amount: string, account = payee.account) => ({
  type: 'bank_account' as const,
  amount,
  currency: 'NGN',
  bank_account: { bank: '044', account },
  customer: { name: payee.name, email: payee.email },
})

async function tripwiresOf(desk: DeskProcess, payee: Payee, amount: string, account?: string): Promise<string[]> {
  const found = must(
    await desk.call<PaymentTripwires | null>('payees:checkPayout', {
      destination: destination(payee, amount, account),
    }),
    'payees:checkPayout',
  )
  return (found?.tripwires ?? []).map((tripwire) => tripwire.kind)
}

/** The book holds each payee once with its exact amount, one ledger line each, and the tripwires see them. */
async function expectLearntOnce(desk: DeskProcess, userDataDir: string, payees: Payee[]): Promise<void> {
  await until(async () => (await page(desk)).total >= payees.length, 'the book to learn every payment')
  const shown = await page(desk)
  expect(shown.total).toBe(payees.length)
  const byName = new Map(shown.payees.map((payee) => [payee.name, payee]))
  for (const payee of payees)
    expect(byName.get(payee.name)?.accounts.map((account) => account.totals)).toEqual([
      [{ currency: 'NGN', count: 1, total: payee.amount }],
    ])
  // The book takes a payment in before its line is appended (the line follows in the same learn):
  // a list read in between shows it a moment before the file does. Once there, never twice.
  await until(async () => (await ledgerLines(userDataDir)).length >= payees.length, 'the ledger lines')
  expect(await ledgerLines(userDataDir)).toHaveLength(payees.length)
  const [first] = payees as [Payee]
  expect(await tripwiresOf(desk, first, first.amount)).toEqual([])
  expect(await tripwiresOf(desk, first, first.amount, '2199999999')).toEqual(['account_changed', 'new_account'])
  expect(await tripwiresOf(desk, first, (Number(first.amount) * 4).toFixed(2))).toEqual(['unusual_amount'])
}

describe("the payee book across a SIGKILL while it learns a run's paid rows", () => {
  it.each<[Checkpoint, string]>([
    ['payees:learning', 'KL'],
    ['payees:learnt', 'KD'],
  ])(
    'killed at %s: started again, the book knows every paid row exactly once and the tripwires fire for a repeat',
    async (killAt, tag) => {
      const userDataDir = join(dir, `desk-${tag}`)
      const payees = payeesOf(tag, 6)
      const desk = await deskOn(userDataDir, killAt)
      let runId = ''
      expect(await killedWhile(desk, async () => (runId = await sendRun(desk, tag, payees)))).toBe(killAt)

      const again = await deskOn(userDataDir)
      try {
        // The run carries on where it was, if the kill cut it short too.
        if (runId)
          await until(
            async () => must(await again.call<RunView>('bulk:run', { runId }), 'bulk:run').stage === 'completed',
            'the run to complete',
          )
        await expectLearntOnce(again, userDataDir, payees)
      } finally {
        await again.quit()
      }
      // A clean quit and start learns nothing more.
      const third = await deskOn(userDataDir)
      try {
        expect((await page(third)).total).toBe(payees.length)
        expect(await ledgerLines(userDataDir)).toHaveLength(payees.length)
      } finally {
        await third.quit()
      }
    },
    240_000,
  )
})

describe('the payee book across a SIGKILL while it learns a single payout', () => {
  it('killed at payees:learning: started again, the book knows the payout once', async () => {
    const userDataDir = join(dir, 'desk-single')
    const [payee] = payeesOf('SP', 1) as [Payee]
    const desk = await deskOn(userDataDir, 'payees:learning')
    let reference = ''
    const killedAt = await killedWhile(desk, async () => {
      reference = must(await desk.call<string>('payouts:newReference'), 'payouts:newReference')
      const body = { reference, destination: { ...destination(payee, payee.amount), narration: 'Single' } }
      must(await desk.call('payouts:send', { body }), 'payouts:send')
    })
    expect(killedAt).toBe('payees:learning')

    const again = await deskOn(userDataDir)
    try {
      await until(async () => {
        const payouts = must(await again.call<MovementView[]>('payouts:list'), 'payouts:list')
        return payouts.some((payout) => payout.reference === reference && payout.state === 'success')
      }, 'the payout to be known paid')
      await until(async () => (await page(again)).total === 1, 'the book to learn the payout')
      expect((await page(again)).payees[0]?.accounts[0]?.totals).toEqual([
        { currency: 'NGN', count: 1, total: payee.amount },
      ])
      expect(await ledgerLines(userDataDir)).toHaveLength(1)
      expect(await tripwiresOf(again, payee, payee.amount, '2199999999')).toEqual(['account_changed', 'new_account'])
    } finally {
      await again.quit()
    }
  }, 240_000)
})
