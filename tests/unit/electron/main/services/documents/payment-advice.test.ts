/**
 * A payment advice read back as its reader would: every figure and name in its text (extracted by
 * pdftotext from the compressed PDF), accents and the naira sign intact, a watermark on every
 * Sandbox or test advice and none on a live one, a page that is not blank, and never a card number
 * or a key.
 */
import { describe, expect, it } from 'vitest'
import { paymentAdvicePdf } from '../../../../../../electron/main/services/documents/payment-advice'
import type { PaymentAdvice } from '../../../../../../electron/main/services/documents/payment-advice'
import { pdfInfo, pdfPages, renderPages } from '../../../../../support/pdf'

function advice(overrides: Partial<PaymentAdvice> = {}): PaymentAdvice {
  return {
    payer: 'Adúnní Stores Ltd',
    beneficiary: 'Chidínma Ọkọ́nkwọ́',
    beneficiaryEmail: 'chi@example.com',
    institution: 'Guaranty Trust Bank',
    kind: 'bank_account',
    account: '••••••6789',
    amount: '1234567.50',
    currency: 'NGN',
    fee: '53.75',
    narration: 'March salary',
    reference: 'PAY-2026-0001',
    batchReference: null,
    traceId: 'TRC-0042-77',
    paidAt: '2026-11-23T19:50:12.000Z',
    mode: 'live',
    source: 'Single payout, from the desk’s journal',
    ...overrides,
  }
}

const ISSUED = { issuedAt: new Date('2026-11-24T08:00:00Z'), timeZone: 'Africa/Lagos' }

describe('payment advice', () => {
  it('says who paid whom, where, how much, for what, with its references, when and in which mode', async () => {
    const bytes = await paymentAdvicePdf(advice(), ISSUED)
    const pages = pdfPages(bytes)
    expect(pages).toHaveLength(1)
    const lines = (pages[0] ?? '').split('\n')
    expect(lines).toEqual(
      expect.arrayContaining([
        'Payment advice',
        'From Adúnní Stores Ltd',
        '₦1,234,567.50 Currency: NGN',
        'Paid to Chidínma Ọkọ́nkwọ́',
        'E-mail chi@example.com',
        'Bank Guaranty Trust Bank',
        'Account ••••••6789',
        'Amount 1,234,567.50 NGN',
        'Fee 53.75 NGN',
        'Narration March salary',
        'Reference PAY-2026-0001',
        'Trace ID TRC-0042-77',
        // 19:50:12 UTC is 20:50:12 in Lagos: the zone is said.
        'Paid on 23 November 2026, 20:50:12 (GMT+1)',
        'Paid by Adúnní Stores Ltd',
        'Mode Live',
        'Source Single payout, from the desk’s journal',
      ]),
    )
    expect(pages[0]).toContain(
      'Payment advice PAY-2026-0001 · issued 24 November 2026, 09:00:00 (GMT+1) by Payout Desk',
    )
    expect(pages[0]).toContain('Page 1 of 1')
    // A live advice carries no watermark and no warning.
    expect(pages[0]).not.toMatch(/NOT A REAL PAYMENT|not a record of a real payment/)
    expect(pdfInfo(bytes)).toMatchObject({ Title: 'Payment advice PAY-2026-0001', Author: 'Adúnní Stores Ltd' })
  })

  it('shows references of 50 characters (the spec’s longest) whole, on one line each, footer included', async () => {
    const reference = 'PAY-2026-MARCH-SALARY-ADUNNI-STORES-0000000000001X'
    const batchReference = 'BR20261123T195012Zabc123def0123456789abcd-B0001'
    expect(reference).toHaveLength(50)
    const page = pdfPages(await paymentAdvicePdf(advice({ reference, batchReference }), ISSUED))[0] ?? ''
    const lines = page.split('\n')
    expect(lines).toContain(`Reference ${reference}`)
    expect(lines).toContain(`Batch reference ${batchReference}`)
    expect(page).toContain(`Payment advice ${reference} · issued`)
  })

  it('watermarks a Sandbox or test advice so it can never pass as a real one', async () => {
    for (const [mode, mark, words] of [
      ['sandbox', 'SANDBOX · NOT A REAL PAYMENT', 'Sandbox: simulated, no money moved'],
      ['test', 'TEST · NOT A REAL PAYMENT', 'Test mode: not real money'],
    ] as const) {
      const text = pdfPages(await paymentAdvicePdf(advice({ mode }), ISSUED))[0] ?? ''
      // The watermark runs corner to corner; pdftotext spaces its rotated letters apart.
      expect(text.replace(/\s+/g, '')).toContain(mark.replace(/\s+/g, ''))
      expect(text).toContain(`${words}. This advice is not a record of a real payment.`)
      expect(text).toContain(`Mode ${words}`)
    }
  })

  it('names a mobile-money operator and number, a batch reference, and says when there is no trace ID', async () => {
    const text =
      pdfPages(
        await paymentAdvicePdf(
          advice({
            kind: 'mobile_money',
            institution: 'M-Pesa',
            account: '••••••••5678',
            currency: 'KES',
            amount: '2500.00',
            fee: null,
            batchReference: 'BR20261123T195012Zabc123-B0001',
            traceId: null,
          }),
          ISSUED,
        ),
      )[0] ?? ''
    expect(text).toContain('Mobile money operator M-Pesa')
    expect(text).toContain('Mobile number ••••••••5678')
    expect(text).toContain('Amount 2,500.00 KES')
    expect(text).toContain('KSh 2,500.00')
    expect(text).toContain('Batch reference BR20261123T195012Zabc123-B0001')
    expect(text).toContain('Trace ID not given by the service')
    expect(text).not.toContain('Fee ')
  })

  it('renders a page with content on it', async () => {
    const pages = await renderPages(await paymentAdvicePdf(advice({ mode: 'sandbox' }), ISSUED))
    expect(pages).toHaveLength(1)
    expect(pages[0]?.width).toBeLessThan(pages[0]?.height ?? 0)
    // Text, rules and the watermark ink a few percent of an A4 page; a blank page has none.
    expect(pages[0]?.ink).toBeGreaterThan(0.01)
  })

  it('refuses a card number or a key in any field, and makes nothing', async () => {
    for (const narration of ['card 5399 8343 1234 5671', ['sk', 'live', 'abcdef0123456789'].join('_')]) {
      await expect(paymentAdvicePdf(advice({ narration }), ISSUED)).rejects.toThrow(
        'The payment advice was not made: its narration looks like a key or a card number',
      )
    }
    await expect(paymentAdvicePdf(advice({ beneficiary: '4111 1111 1111 1111' }), ISSUED)).rejects.toThrow(
      'its beneficiary looks like',
    )
  })
})
