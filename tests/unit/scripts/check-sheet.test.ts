/**
 * The check-sheet command (decision 36), spawned for real from its build
 * (out/cli/check-sheet.js): its JSON, its report and its exit codes; bank names against the bundled
 * list or a --banks file, totals and notes rows, the control total, a sheet with no payout rows.
 */
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const dir = mkdtempSync(join(tmpdir(), 'payout-desk-check-sheet-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
beforeAll(() => {
  expect(
    existsSync(join(__dirname, '../../../out/cli/check-sheet.js')),
    'run `npm run build` before the unit tests',
  ).toBe(true)
})
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
  it('prints its JSON shape (decision 36) and exits 0 when every row is valid', async () => {
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
      skipped: [],
      // Which currency the sheet was read in, and why (decision 55).
      currency: {
        value: 'NGN',
        from: 'sheet',
        because: ['2 rows name Nigerian banks', 'the amount column is headed "Amount (NGN)"'],
        against: [],
      },
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
        message: 'Account number "12345" is not a Kenyan account number: 6 to 16 digits.',
      },
      {
        row: 4,
        column: 'bank_code',
        code: 'bank_other_country',
        message:
          'Bank code 044 is a Nigerian bank (Access Bank, 044), and this run pays KES to Kenyan banks: import the sheet as NGN, or choose a Kenyan bank.',
        candidates: [],
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
      'Currency:   NGN (from the sheet: 4 rows name Nigerian banks, the amount column is headed "Amount (NGN)")',
      'Header row: 3',
      'Columns:',
      '  "Reference" -> reference',
      '  "Amount (NGN)" -> amount',
      '  "Bank Code" -> bank_code',
      '  "Acct No" -> account_number',
      '  "Beneficiary Name" -> customer_name',
      '  "E-mail" -> customer_email',
      '  "Narration/Description" -> narration',
      'Rows: 5   valid: 2   with errors: 3   warnings: 0',
      'Errors:',
      '  row 5, bank_code: Bank code 44 is stored as a number and has lost its leading zero (did you mean 044?). Format the column as text and type the code again. [leading_zero_lost]',
      '  row 5, account_number: Account number 123456789 came from a number cell and has 9 digits; Nigerian account numbers (NUBAN) have 10: a leading zero was lost. Format the column as text and type the number again. [leading_zero_lost]',
      '  row 6, account_number: Account number 1234567890 came from a number cell, which drops leading zeros: check it against where it came from and confirm it, or type it as text. [account_number_cell]',
      '  row 8, amount: "12.345" has more than two decimal places. [amount_decimals]',
      '  row 8, account_number: Account number 0012345678 came from a number cell, which drops leading zeros: check it against where it came from and confirm it, or type it as text. [account_number_cell]',
      'Some rows have errors.',
      '',
    ])
  }, 60_000)

  it('refuses a bad currency with usage on stderr and exit 2', async () => {
    const { code, stdout, stderr } = await checkSheet(fixture('kenya.csv'), '--currency', 'USD')
    expect([code, stdout]).toEqual([2, ''])
    expect(stderr).toContain('--currency must be NGN or KES.')
  }, 60_000)

  it('gives every item its resolved bank code, names where a name matched, and errors with candidates', async () => {
    const { code, stdout } = await checkSheet(fixture('messy-payroll.xlsx'), '--json')
    expect(code).toBe(1)
    const result = JSON.parse(stdout) as {
      rows: number
      items: Array<{ row: number; bank_code: string; bank_match?: unknown }>
      errors: unknown[]
      skipped: unknown[]
      control_total: unknown
    }
    expect(result.rows).toBe(12)
    expect(result.items.slice(0, 2)).toMatchObject([
      {
        row: 5,
        bank_code: '058',
        bank_match: { from: 'GTBank', code: '058', name: 'Guaranty Trust Bank', how: 'exact' },
      },
      {
        row: 6,
        bank_code: '044',
        bank_match: { from: 'ACCESS BANK PLC', code: '044', name: 'Access Bank', how: 'exact' },
      },
    ])
    expect(result.items.find((item) => item.row === 13)?.bank_match).toEqual({
      from: 'GTB',
      code: '058',
      name: 'Guaranty Trust Bank',
      how: 'alias',
    })
    // A code stays a code: no bank_match.
    expect(result.items.find((item) => item.row === 14)).toMatchObject({ bank_code: '058' })
    expect(result.items.find((item) => item.row === 14)).not.toHaveProperty('bank_match')
    expect(result.errors).toEqual([
      {
        row: 15,
        column: 'bank_code',
        code: 'bank_name_ambiguous',
        message:
          '"First" could be First Bank of Nigeria (011) or First City Monument Bank (214): choose the bank, or type its code.',
        candidates: [
          { code: '011', name: 'First Bank of Nigeria' },
          { code: '214', name: 'First City Monument Bank' },
        ],
      },
    ])
    expect(result.skipped).toEqual([
      { row: 17, why: 'totals' },
      { row: 18, why: 'notes' },
      { row: 19, why: 'notes' },
    ])
    expect(result.control_total).toEqual({ sheet: '1129701.00', computed: '1129701.00', match: true })
  }, 60_000)

  it('reads names against a --banks file: an array of entries, or the service response', async () => {
    const sheet = join(dir, 'banks.csv')
    writeFileSync(
      sheet,
      [
        'reference,amount,bank,account_number,customer_name,customer_email,narration',
        'B-00001,100,GTBank,0123456789,Ada Obi,ada@example.com,Pay',
        'B-00002,100,UBA,0123456780,Bola Ade,bola@example.com,Pay',
        'B-00003,100,Guarranty Trust,0123456781,Chidi Eze,chidi@example.com,Pay',
      ].join('\n'),
    )
    const list = [{ name: 'Guaranty Trust Bank', slug: 'gtbank', code: '058', country: 'NG' }]
    const arrayFile = join(dir, 'banks-array.json')
    writeFileSync(arrayFile, JSON.stringify(list))
    const responseFile = join(dir, 'banks-response.json')
    writeFileSync(responseFile, JSON.stringify({ status: true, message: 'Banks retrieved successfully', data: list }))
    for (const file of [arrayFile, responseFile]) {
      const { code, stdout } = await checkSheet(sheet, '--banks', file, '--json')
      expect(code).toBe(1)
      const result = JSON.parse(stdout) as { items: Array<{ bank_code: string }>; errors: unknown[] }
      expect(result.items.map((item) => item.bank_code)).toEqual(['058', 'UBA', 'Guarranty Trust'])
      expect(result.errors).toEqual([
        {
          row: 3,
          column: 'bank_code',
          code: 'bank_name_unknown',
          message:
            '"UBA" is neither a Nigerian bank code nor the name of a bank in the service\'s list: type the bank\'s code, or its name as the bank list has it.',
          candidates: [],
        },
        {
          row: 4,
          column: 'bank_code',
          code: 'bank_name_suggestion',
          message:
            '"Guarranty Trust" is not the name of a Nigerian bank in the service\'s list; did you mean Guaranty Trust Bank (058)? Choose the bank, or type its code.',
          candidates: [{ code: '058', name: 'Guaranty Trust Bank' }],
        },
      ])
    }
    const bad = join(dir, 'bad.json')
    writeFileSync(bad, '{"banks": []}')
    const refused = await checkSheet(sheet, '--banks', bad)
    expect([refused.code, refused.stdout]).toEqual([2, ''])
    expect(refused.stderr).toContain(`--banks ${bad}: expected an array of banks`)
  }, 60_000)

  it('reports a total that differs from the rows, and the rows it left out', async () => {
    const sheet = join(dir, 'total.csv')
    writeFileSync(
      sheet,
      [
        'reference,amount,bank_code,account_number,customer_name,customer_email,narration',
        'T-00001,"1,000.00",058,0123456789,Ada Obi,ada@example.com,Pay',
        'T-00002,"₦250.50",044,0123456780,Bola Ade,bola@example.com,Pay',
        'TOTAL,"1,500.50",,,,,',
        'Prepared by accounts,,,,,,',
      ].join('\n'),
    )
    const json = await checkSheet(sheet, '--json')
    expect(json.code).toBe(0)
    expect(JSON.parse(json.stdout)).toMatchObject({
      rows: 2,
      valid: 2,
      skipped: [
        { row: 4, why: 'totals' },
        { row: 5, why: 'notes' },
      ],
      control_total: { sheet: '1500.50', computed: '1250.50', match: false },
    })
    const text = await checkSheet(sheet)
    expect(text.stdout).toContain("Skipped row 4: the sheet's total\nSkipped row 5: a note below the data\n")
    expect(text.stdout).toContain(
      "Control total: the sheet's total 1,500.50 NGN differs from the 2 payout rows, which add up to 1,250.50 NGN.",
    )
  }, 60_000)

  it('rejects a sheet with a header and no payout rows (exit 2), never "all valid"', async () => {
    const sheet = join(dir, 'header-only.csv')
    writeFileSync(sheet, 'reference,amount,bank_code,account_number,customer_name,customer_email,narration\r\n')
    const { code, stdout } = await checkSheet(sheet, '--json')
    expect(code).toBe(2)
    expect(JSON.parse(stdout)).toEqual({
      file: sheet,
      fileError: {
        code: 'no_payout_rows',
        message:
          'Sheet "header-only" has no payout rows: nothing under its header (row 1). Fill in the rows to pay, one payout per row.',
      },
    })
  }, 60_000)

  it('names an unknown option, with usage, exit 2', async () => {
    const { code, stderr } = await checkSheet(fixture('kenya.csv'), '--colour', 'red')
    expect(code).toBe(2)
    expect(stderr).toContain("Unknown option '--colour'")
    expect(stderr).toContain('Usage: npm run --silent check-sheet')
  }, 60_000)

  describe('payroll and vendor sheets without e-mail or narration columns (decision 53)', () => {
    const payroll = join(dir, 'payroll.csv')
    beforeAll(() =>
      writeFileSync(
        payroll,
        [
          'Employee,Bank Code,Account Number,Net Pay',
          'Adaeze Okafor,058,0690000031,"150,000.00"',
          'Tunde Adeyemi,044,0690000032,"120,500.00"',
        ].join('\r\n'),
      ),
    )

    it('without --email and --narration: rejected (exit 2), naming the options', async () => {
      const { code, stdout } = await checkSheet(payroll)
      expect(code).toBe(2)
      expect(stdout).toBe(
        `${payroll}: rejected: No column for customer e-mail, narration (give one customer e-mail and one narration for the whole run instead). Columns found: "Employee", "Bank Code", "Account Number", "Net Pay". [missing_columns]\nGive them for the whole run with --email <address> and --narration <text>.\n`,
      )
    }, 60_000)

    it('with them: every row takes them, the report says so, exit 0', async () => {
      const { code, stdout } = await checkSheet(payroll, '--email', 'accounts@acme.ng', '--narration', 'March salaries')
      expect(code).toBe(0)
      expect(stdout).toContain('  (whole run) -> customer_email: "accounts@acme.ng", 2 rows\n')
      expect(stdout).toContain('  (whole run) -> narration: "March salaries", 2 rows\n')
      expect(stdout).toContain('Every row is valid.')
      const json = await checkSheet(payroll, '--email', 'accounts@acme.ng', '--narration', 'March salaries', '--json')
      const result = JSON.parse(json.stdout) as {
        items: Array<{ customer_email: string; narration: string }>
        run_wide: unknown
      }
      expect(result.items.map((item) => [item.customer_email, item.narration])).toEqual([
        ['accounts@acme.ng', 'March salaries'],
        ['accounts@acme.ng', 'March salaries'],
      ])
      expect(result.run_wide).toEqual({
        customer_email: { value: 'accounts@acme.ng', rows: 2 },
        narration: { value: 'March salaries', rows: 2 },
      })
    }, 60_000)

    it('an --email that is no address, or an empty one, is refused with usage (exit 2)', async () => {
      const wrong = await checkSheet(payroll, '--email', 'accounts-at-acme', '--narration', 'March')
      expect([wrong.code, wrong.stdout]).toEqual([2, ''])
      expect(wrong.stderr).toContain(
        '--email: The e-mail for the whole run, "accounts-at-acme", is not a valid e-mail address.',
      )
      expect(wrong.stderr).toContain('[--email <address>] [--narration <text>]')
      const empty = await checkSheet(payroll, '--email', ' ', '--narration', 'March')
      expect(empty.code).toBe(2)
      expect(empty.stderr).toContain('--email is empty')
    }, 60_000)

    it('only --email where the narration column exists; a row with its own e-mail keeps it', async () => {
      const { code, stdout } = await checkSheet(fixture('google-sheets.csv'), '--email', 'finance@acme.ng', '--json')
      expect(code).toBe(1)
      const result = JSON.parse(stdout) as { items: Array<{ reference: string; customer_email: string }> }
      expect(result.items.slice(0, 2).map((item) => [item.reference, item.customer_email])).toEqual([
        ['REQ-0001', 'adaeze@example.com'],
        ['REQ-0002', 'finance@acme.ng'],
      ])
    }, 60_000)

    it('a Kenyan payroll is read as KES without --currency, and says why; number-cell accounts are flagged (exit 1)', async () => {
      const { code, stdout } = await checkSheet(
        fixture('kenya-payroll.xlsx'),
        '--email',
        'payroll@savanna.co.ke',
        '--narration',
        'March salaries',
      )
      expect(code).toBe(1)
      expect(stdout).toContain(
        'Currency:   KES (from the sheet: a cell says "Currency: KES" (row 3), 4 rows name Kenyan banks)\n',
      )
      expect(stdout).toContain('"Stanbic" -> Stanbic Bank Kenya (31), exact, 1 row')
      expect(stdout).toContain(
        'row 6, account_number: Account number 170546876558 came from a number cell and has 12 digits; Equity Bank Kenya account numbers have 13: a leading zero was lost.',
      )
      // --currency still decides when given.
      const asked = await checkSheet(
        fixture('kenya-payroll.xlsx'),
        '--currency',
        'NGN',
        '--email',
        'p@s.co.ke',
        '--narration',
        'x',
      )
      expect(asked.stdout).toContain('Currency:   NGN (--currency)\n')
      expect(asked.stdout).toContain('[bank_other_country]')
    }, 60_000)

    it('exit 1 for a sheet whose only findings are questions, and says so', async () => {
      const sheet = join(dir, 'asks.csv')
      writeFileSync(
        sheet,
        [
          'reference,amount,bank_code,account_number,customer_name,customer_email,narration',
          'INV-2033,250000.00,058,0690000031,Chukwuma Supplies,ap@chukwuma.ng,Stationery',
          'INV-2041,250000.00,058,0690000031,Chukwuma Supplies,ap@chukwuma.ng,Printer toner',
        ].join('\n'),
      )
      const { code, stdout } = await checkSheet(sheet)
      expect(code).toBe(1)
      expect(stdout).toContain('[same_payment_again]')
      expect(stdout).toContain(
        "No row has an error, but 1 needs a person's answer before it is paid (in the desk's review).",
      )
    }, 60_000)
  })
})
