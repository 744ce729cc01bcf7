/** Header detection and column matching the way accountants name columns. */
import { describe, expect, it } from 'vitest'
import {
  autoMapping,
  describeColumns,
  detectHeaderRow,
  fieldForHeader,
  layoutKey,
  normaliseHeader,
} from '../../../../shared/bulk/header'
import type { SheetRow } from '../../../../shared/bulk/cells'

describe('column names', () => {
  it.each([
    ['Acct No', 'account_number'],
    ['Account Number', 'account_number'],
    ['NUBAN', 'account_number'],
    ['Beneficiary Name', 'customer_name'],
    ['Account Name', 'customer_name'],
    ['Amount (NGN)', 'amount'],
    ['Amount KES', 'amount'],
    ['E-mail', 'customer_email'],
    ['Email Address', 'customer_email'],
    ['Narration/Description', 'narration'],
    ['Remarks', 'narration'],
    ['Bank Code', 'bank_code'],
    ['Sort code', 'bank_code'],
    ['Payment Ref', 'reference'],
    ['customer_email', 'customer_email'],
    ['  AMOUNT  ', 'amount'],
  ])('"%s" is %s', (header, field) => {
    expect(fieldForHeader(header)?.field).toBe(field)
  })

  it.each([
    ['Vendor', 'customer_name'],
    ['Supplier', 'customer_name'],
    ['Payee', 'customer_name'],
    ['Employee', 'customer_name'],
    ['VENDOR (as registered)', 'customer_name'],
    ['Employee Full Name', 'customer_name'],
    // Beside another field's word, who is paid only says whose it is: the other word decides.
    ['Vendor Bank', 'bank_code'],
    ['Supplier Account No', 'account_number'],
    ['Beneficiary Acct', 'account_number'],
    ['Employee Email', 'customer_email'],
    ['Customer Ref', 'reference'],
    ['Payee Bank Code', 'bank_code'],
  ])('the recipient as payroll and vendor sheets name it: "%s" is %s', (header, field) => {
    expect(fieldForHeader(header)?.field).toBe(field)
  })

  it('a staff or vendor number is not the recipient: it is the payee id (decision 108)', () => {
    expect(fieldForHeader('Staff No')?.field).toBe('payee_id')
    expect(fieldForHeader('Employee ID')?.field).toBe('payee_id')
    expect(fieldForHeader('Vendor Code')?.field).toBe('payee_id')
    expect(autoMapping(['Staff No', 'Employee', 'Bank', 'Account Number', 'Net Pay'])).toEqual([
      'payee_id',
      'customer_name',
      'bank_code',
      'account_number',
      'amount',
    ])
    expect(autoMapping(['Vendor', 'Vendor Bank', 'Vendor Account No', 'Amount'])).toEqual([
      'customer_name',
      'bank_code',
      'account_number',
      'amount',
    ])
  })

  it('knows exact names from names that contain one', () => {
    expect(fieldForHeader('Amount (NGN)')).toEqual({ field: 'amount', strength: 2, rank: 0 })
    expect(fieldForHeader('Staff narration text')).toEqual({ field: 'narration', strength: 1, rank: 0 })
    expect(fieldForHeader('Department')).toBeNull()
    expect(fieldForHeader('__proto__')).toBeNull()
    expect(fieldForHeader('')).toBeNull()
  })

  it('normalises marks, punctuation, units and currency words away', () => {
    expect(normaliseHeader(' Amount (₦) [NGN] ')).toBe('amount')
    expect(normaliseHeader('Réference_No.')).toBe('reference no')
  })

  it('maps each field to one column: an exact name first, the field name itself before a synonym, then the leftmost', () => {
    expect(autoMapping(['Bank Name', 'Bank Code', 'Amount', 'Amount', 'Notes', 'Narration'])).toEqual([
      null,
      'bank_code',
      'amount',
      null,
      null,
      'narration',
    ])
  })
})

describe('header row', () => {
  const rows: SheetRow[] = [
    { row: 1, cells: ['Payroll for March: amount in naira'] },
    { row: 2, cells: ['Prepared by', 'Finance'] },
    { row: 4, cells: ['Ref', 'Amount', 'Bank', 'Acct No', 'Name', 'Email', 'Narration'] },
    { row: 5, cells: ['R-1', { value: 10, text: '10' }, '044', '0123456789', 'Ada', 'ada@example.com', 'Pay'] },
  ]

  it('is the first row naming at least three fields, below titles and notes', () => {
    expect(detectHeaderRow(rows)).toBe(4)
    expect(detectHeaderRow(rows.slice(0, 2))).toBeNull()
  })

  it('describes the columns under a chosen header with sample values', () => {
    expect(describeColumns(rows, 4).map((column) => [column.header, column.field, column.samples])).toEqual([
      ['Ref', 'reference', ['R-1']],
      ['Amount', 'amount', ['10']],
      ['Bank', 'bank_code', ['044']],
      ['Acct No', 'account_number', ['0123456789']],
      ['Name', 'customer_name', ['Ada']],
      ['Email', 'customer_email', ['ada@example.com']],
      ['Narration', 'narration', ['Pay']],
    ])
  })

  it('keys remembered mappings by the header texts, ignoring case and spacing only', () => {
    expect(layoutKey(['Acct  No', 'Amount'])).toBe(layoutKey([' acct no ', 'AMOUNT']))
    expect(layoutKey(['Acct No', 'Amount'])).not.toBe(layoutKey(['Amount', 'Acct No']))
  })
})
