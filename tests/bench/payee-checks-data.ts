/**
 * The benchmark's data (decision 109): a payee book of PAYEES payees paid monthly for MONTHS
 * months, written as the ledger the desk keeps, and month eleven's sheet with 1% of each kind of
 * trouble planted. Shared by tests/bench/payee-checks.ts and whoever profiles the checks.
 */
import { createWriteStream } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { once } from 'node:events'
import type { PaymentToCheck } from '../../shared/payees/tripwires'

export const PAYEES = Number(process.env.BENCH_PAYEES ?? 100_000)
export const MONTHS = Number(process.env.BENCH_MONTHS ?? 10)
export const SHEET_ROWS = Number(process.env.BENCH_ROWS ?? 100_000)
export const SCOPE = { profileId: 'acme-live', mode: 'live' as const }

const account = (payee: number): string => String(payee * 7919).padStart(10, '0')
const amountOf = (payee: number): string => `${150_000 + (payee % 500) * 100}.00`
const nameOf = (payee: number): string => `Employee${payee} Surname${payee % 9973}`

export async function writeBook(directory: string): Promise<void> {
  const { encodePaid } = await import('../../electron/main/services/payees/paid-payment')
  const { ledgerFile } = await import('../../electron/main/services/payees/payee-ledger')
  await mkdir(directory, { recursive: true })
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
export function sheet(): PaymentToCheck[] {
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
