/**
 * Benchmark (decision 109): the tripwires of a 100,000-row sheet against a payee book of
 * 1,000,000 past payments (100,000 payees paid monthly for ten months), in a child process of its
 * own so its memory is the book's and node's alone, as main's would be. Prints:
 * - the book's load from its file (done once, in the background after start);
 * - the time the checks add to an import (the book loaded), and cold (load + checks);
 * - main's memory (RSS, heap) with the book loaded, and its peak;
 * - the event loop's delay while loading and checking (what an IPC call waits at most);
 * - how many rows each tripwire flagged (the sheet plants changed accounts, new payees, shared
 *   accounts, amount spikes and name drift), so the figures are of checks that ran.
 * Targets: under 2 s added, main under 600 MB, event loop p99 under 50 ms.
 * Run: npm run bench:payee-checks   (prints figures and ratios; it asserts nothing)
 */
import { execFileSync } from 'node:child_process'
import { createWriteStream, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { monitorEventLoopDelay, performance } from 'node:perf_hooks'
import { once } from 'node:events'
import type { PaymentToCheck } from '../../shared/payees/tripwires'

const PAYEES = Number(process.env.BENCH_PAYEES ?? 100_000)
const MONTHS = Number(process.env.BENCH_MONTHS ?? 10)
const SHEET_ROWS = Number(process.env.BENCH_ROWS ?? 100_000)
const SCOPE = { profileId: 'acme-live', mode: 'live' as const }

const account = (payee: number): string => String(payee * 7919).padStart(10, '0')
const amountOf = (payee: number): string => `${150_000 + (payee % 500) * 100}.00`
const nameOf = (payee: number): string => `Employee${payee} Surname${payee % 9973}`

async function writeBook(directory: string): Promise<void> {
  const { encodePaid } = await import('../../electron/main/services/payees/paid-payment')
  const { ledgerFile } = await import('../../electron/main/services/payees/payee-ledger')
  await mkdir(directory, { recursive: true })
  writeFileSync(join(directory, 'folded.json'), JSON.stringify({ version: 1, foldedAt: new Date().toISOString() }))
  const out = createWriteStream(ledgerFile(directory, SCOPE))
  for (let month = 0; month < MONTHS; month++) {
    const paidAt = new Date(Date.UTC(2025, month, 28, 10)).toISOString()
    let chunk = ''
    for (let payee = 0; payee < PAYEES; payee++) {
      chunk += `${encodePaid({
        reference: `R${month}-${payee}`,
        paidAt,
        runId: `run-${month}`,
        payeeId: `E${payee}`,
        name: nameOf(payee),
        account: { type: 'bank_account', bank: '058', account: account(payee) },
        currency: 'NGN',
        amount: amountOf(payee),
        resolvedName: nameOf(payee).toUpperCase(),
        resolvedAt: paidAt,
      })}\n`
      if (chunk.length > 1 << 20) {
        if (!out.write(chunk)) await once(out, 'drain')
        chunk = ''
      }
    }
    out.write(chunk)
  }
  out.end()
  await once(out, 'finish')
}

/** Month eleven's sheet: the same payees, with 1% of each kind of trouble planted. */
function sheet(): PaymentToCheck[] {
  const rows: PaymentToCheck[] = []
  for (let index = 0; index < SHEET_ROWS; index++) {
    const payee = index % PAYEES
    const planted = index % 100
    let accountNumber = account(payee)
    let name = nameOf(payee)
    let payeeId = `E${payee}`
    let amount = amountOf(payee)
    let resolvedName = nameOf(payee).toUpperCase()
    if (planted === 1) accountNumber = String(9_000_000_000 + index) // changed (and new) account
    if (planted === 2) {
      payeeId = `NEW${index}` // a new payee on a new account
      name = `Newcomer ${index}`
      accountNumber = String(8_000_000_000 + index)
      resolvedName = name.toUpperCase()
    }
    if (planted === 3) accountNumber = account((payee + 1) % PAYEES) // a colleague's account
    if (planted === 4) amount = `${Number(amountOf(payee).slice(0, -3)) * 4}.00` // a spike
    if (planted === 5) resolvedName = 'SOMEONE ELSE ENTIRELY' // the bank's name changed
    rows.push({
      row: index + 2,
      payeeId,
      name,
      account: { type: 'bank_account', bank: '058', account: accountNumber },
      currency: 'NGN',
      amount,
      resolvedName,
    })
  }
  return rows
}

interface Figures {
  loadMs: number
  checkMs: number
  coldCheckMs: number
  payments: number
  rssMb: number
  heapMb: number
  baseRssMb: number
  peakMb: number
  loopP99: number
  loopMax: number
  flagged: Record<string, number>
}

async function child(directory: string): Promise<void> {
  const { createPayeesService } = await import('../../electron/main/services/payees')
  const rows = sheet()
  global.gc?.()
  const baseRssMb = process.memoryUsage().rss / 1024 / 1024
  const loop = monitorEventLoopDelay({ resolution: 5 })
  loop.enable()
  const payees = createPayeesService({ directory, runsFolder: join(directory, 'no-runs'), journal: { list: () => [] } })
  let started = performance.now()
  const { total } = await payees.list(SCOPE, { limit: 0 })
  const loadMs = performance.now() - started
  // Cold: the first sheet's checks include whatever the first load left to settle.
  started = performance.now()
  await payees.checkRows(SCOPE, rows)
  const coldCheckMs = performance.now() - started
  started = performance.now()
  const results = await payees.checkRows(SCOPE, rows)
  const checkMs = performance.now() - started
  loop.disable()
  global.gc?.()
  const memory = process.memoryUsage()
  const flagged: Record<string, number> = {}
  for (const result of results)
    for (const tripwire of result.tripwires) flagged[tripwire.kind] = (flagged[tripwire.kind] ?? 0) + 1
  const figures: Figures = {
    loadMs,
    checkMs,
    coldCheckMs,
    payments: total,
    rssMb: memory.rss / 1024 / 1024,
    heapMb: memory.heapUsed / 1024 / 1024,
    baseRssMb,
    peakMb: process.resourceUsage().maxRSS / 1024,
    loopP99: loop.percentile(99) / 1e6,
    loopMax: loop.max / 1e6,
    flagged,
  }
  process.stdout.write(JSON.stringify(figures))
}

const f1 = (value: number): string => value.toFixed(1)

async function main(): Promise<void> {
  console.log(`uptime before: ${execFileSync('uptime', { encoding: 'utf8' }).trim()}`)
  const directory = mkdtempSync(join(tmpdir(), 'payee-bench-'))
  try {
    let started = performance.now()
    await writeBook(directory)
    const { ledgerFile } = await import('../../electron/main/services/payees/payee-ledger')
    const bytes = statSync(ledgerFile(directory, SCOPE)).size
    console.log(
      `Book: ${PAYEES * MONTHS} past payments (${PAYEES} payees x ${MONTHS} months), file ${f1(bytes / 1024 / 1024)} MB, written in ${f1((performance.now() - started) / 1000)} s`,
    )
    started = performance.now()
    const out = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', __filename, '--child', directory], {
      encoding: 'utf8',
      maxBuffer: 16 * 1024 * 1024,
    })
    const figures = JSON.parse(out) as Figures
    console.log(
      `Sheet: ${SHEET_ROWS} rows (1% each: changed account, new payee, colleague's account, 4x amount, bank name changed)`,
    )
    console.log(`  book load from its file: ${f1(figures.loadMs)} ms (once, after start; ${figures.payments} payees)`)
    console.log(
      `  tripwires, book loaded (time added to import): ${f1(figures.checkMs)} ms   target 2000 ms, ratio ${(figures.checkMs / 2000).toFixed(2)}`,
    )
    console.log(
      `  tripwires, first sheet after load: ${f1(figures.coldCheckMs)} ms; load + checks ${f1(figures.loadMs + figures.coldCheckMs)} ms`,
    )
    console.log(
      `  main's memory with the book: RSS ${f1(figures.rssMb)} MB (heap ${f1(figures.heapMb)} MB; ${f1(figures.baseRssMb)} MB before the book), peak RSS ${f1(figures.peakMb)} MB   target 600 MB, ratio ${(figures.peakMb / 600).toFixed(2)}`,
    )
    console.log(
      `  event loop delay while loading and checking: p99 ${f1(figures.loopP99)} ms, max ${f1(figures.loopMax)} ms   target p99 50 ms`,
    )
    console.log(
      `  flags: ${Object.entries(figures.flagged)
        .map(([kind, count]) => `${kind} ${count}`)
        .join(', ')}`,
    )
    console.log(
      `  (child wall time ${f1((performance.now() - started) / 1000)} s; load average ${loadavg()[0]?.toFixed(1)})`,
    )
  } finally {
    rmSync(directory, { recursive: true, force: true })
    console.log(`uptime after: ${execFileSync('uptime', { encoding: 'utf8' }).trim()}`)
  }
}

if (process.argv[2] === '--child') void child(process.argv[3] as string)
else void main()
