/**
 * Payout sheets as the soak's user has them: CSV files of a handful to a hundred rows, each row its
 * own payment (its reference is its identity, and every retry reference derived from it, `-R1`,
 * `-R2`, is the same payment). Some cells are typed wrong and must be fixed before sending; some
 * accounts fail at the bank for good.
 */
import type { Random } from './random'

export interface SheetRow {
  reference: string
  amount: string
  bank_code: string
  account_number: string
  customer_name: string
  customer_email: string
  narration: string
}

export interface Sheet {
  id: string
  fileName: string
  rows: SheetRow[]
  csv: string
}

/** The account a wrongly typed cell should have held (the user's fix). */
export const TYPO_ACCOUNT = '12O4567890'

/** The payment a reference belongs to: itself without its retry suffix. */
export function paymentOf(reference: string): string {
  return reference.replace(/-R\d+$/, '')
}

export function makeSheet(id: string, random: Random): Sheet {
  const count = random.chance(0.1) ? random.int(51, 110) : random.int(2, 24)
  const rows: SheetRow[] = []
  for (let k = 1; k <= count; k++) {
    const roll = random.next()
    // Bank 044 (the test bank that pays); 9999999999 is a dormant account that always fails.
    const account = roll < 0.06 ? '9999999999' : String(2_000_000_000 + random.int(0, 7_999_999))
    rows.push({
      reference: `${id}-${String(k).padStart(3, '0')}`,
      amount: `${random.int(100, 90_000)}.${String(random.int(0, 99)).padStart(2, '0')}`,
      bank_code: random.pick(['044', '033', '058']),
      account_number: roll > 0.9 ? TYPO_ACCOUNT : account,
      customer_name: `Customer ${id} ${k}`,
      customer_email: `c${k}@example.com`,
      narration: `Soak ${id} row ${k}`,
    })
  }
  const header = 'reference,amount,bank_code,account_number,customer_name,customer_email,narration'
  const lines = rows.map((r) =>
    [r.reference, r.amount, r.bank_code, r.account_number, r.customer_name, r.customer_email, r.narration].join(','),
  )
  return { id, fileName: `${id}.csv`, rows, csv: [header, ...lines].join('\n') + '\n' }
}
