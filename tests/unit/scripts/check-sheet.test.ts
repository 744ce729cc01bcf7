/** The check-sheet command (issue 7 §9), spawned for real: its JSON, its report and its exit codes. */
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

const dir = mkdtempSync(join(tmpdir(), 'payout-desk-check-sheet-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const fixture = (name: string): string => join('tests/fixtures/sheets', name)

function checkSheet(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      'npm',
      ['run', '--silent', 'check-sheet', '--', ...args],
      { cwd: join(__dirname, '../../..') },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    )
  })
}

describe('npm run check-sheet', () => {
  it('prints the JSON shape of §9 and exits 0 when every row is valid', async () => {
    const { code, stdout } = await checkSheet(fixture('several-sheets.xlsx'), '--json')
    expect(code).toBe(0)
    expect(JSON.parse(stdout)).toEqual({
      file: fixture('several-sheets.xlsx'),
      sheet: 'Payouts',
      header: {
        row: 1,
        columns: {
          Reference: 'reference',
          'Amount (NGN)': 'amount',
          'Bank Code': 'bank_code',
          'Acct No': 'account_number',
          'Beneficiary Name': 'customer_name',
          'E-mail': 'customer_email',
          'Narration/Description': 'narration',
        },
      },
      rows: 2,
      valid: 2,
      items: [
        {
          row: 2,
          reference: 'S-00001',
          amount: '100.00',
          bank_code: '044',
          account_number: '0123456789',
          customer_name: 'Kofi Mensah',
          customer_email: 'kofi@example.com',
          narration: 'Fees',
        },
        {
          row: 3,
          reference: 'S-00002',
          amount: '200.00',
          bank_code: '058',
          account_number: '0123456780',
          customer_name: 'Ama Boateng',
          customer_email: 'ama@example.com',
          narration: 'Fees',
        },
      ],
      errors: [],
      warnings: [],
    })
  }, 60_000)

  it('exits 1 when some row has an error, naming row and column', async () => {
    const { code, stdout } = await checkSheet(fixture('kenya.csv'), '--currency', 'KES', '--json')
    expect(code).toBe(1)
    const result = JSON.parse(stdout) as { rows: number; valid: number; errors: unknown[] }
    expect([result.rows, result.valid]).toEqual([3, 1])
    expect(result.errors).toEqual([
      {
        row: 3,
        column: 'account_number',
        code: 'account_number_format',
        message: 'Account number "12345" is not a KE account number: 6 to 16 digits.',
      },
      {
        row: 4,
        column: 'bank_code',
        code: 'bank_code_unknown',
        message: 'Bank code "044" is not a KE bank code of the service.',
      },
    ])
  }, 60_000)

  it('exits 2 with { file, fileError } when the file is rejected, and when a named sheet has no header', async () => {
    const empty = join(dir, 'empty.csv')
    writeFileSync(empty, '')
    const rejected = await checkSheet(empty, '--json')
    expect(rejected.code).toBe(2)
    expect(JSON.parse(rejected.stdout)).toEqual({
      file: empty,
      fileError: { code: 'empty_file', message: 'The file is empty (0 bytes).' },
    })
    const summary = await checkSheet(fixture('several-sheets.xlsx'), '--sheet', 'Summary', '--json')
    expect(summary.code).toBe(2)
    expect((JSON.parse(summary.stdout) as { fileError: { code: string } }).fileError.code).toBe('no_header')
  }, 60_000)

  it('prints a readable report without --json', async () => {
    const { code, stdout } = await checkSheet(fixture('header-row-3.xlsx'))
    expect(code).toBe(1)
    expect(stdout.split('\n')).toEqual([
      `File:       ${fixture('header-row-3.xlsx')}`,
      'Sheet:      March',
      'Header row: 3',
      'Columns:',
      '  "Reference" -> reference',
      '  "Amount (NGN)" -> amount',
      '  "Bank Code" -> bank_code',
      '  "Acct No" -> account_number',
      '  "Beneficiary Name" -> customer_name',
      '  "E-mail" -> customer_email',
      '  "Narration/Description" -> narration',
      'Rows: 5   valid: 3   with errors: 2   warnings: 0',
      'Errors:',
      '  row 5, bank_code: Bank code 44 is stored as a number and has lost its leading zero (did you mean 044?). Format the column as text and type the code again. [leading_zero_lost]',
      '  row 5, account_number: Account number 123456789 is stored as a number and has lost its leading zeros (9 digits; expected exactly 10 digits (NUBAN)). Format the column as text and type the number again. [leading_zero_lost]',
      '  row 8, amount: "12.345" has more than two decimal places. [amount_decimals]',
      'Some rows have errors.',
      '',
    ])
  }, 60_000)

  it('refuses a bad currency with usage on stderr and exit 2', async () => {
    const { code, stdout, stderr } = await checkSheet(fixture('kenya.csv'), '--currency', 'USD')
    expect([code, stdout]).toEqual([2, ''])
    expect(stderr).toContain('--currency must be NGN or KES.')
  }, 60_000)
})
