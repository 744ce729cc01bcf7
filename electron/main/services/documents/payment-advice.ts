/**
 * A payment advice: one paid payout, as the payer sends it to the beneficiary or files it. Who
 * paid, who was paid, to which bank or operator (by name) and account (masked), how much, for
 * what, with the references that trace it, when, and in which mode. A Sandbox or test advice is
 * watermarked on every page so it can never pass as a real one.
 */
import type { ProfileMode } from '../../../../shared/domain/profiles'
import { assertPrintable } from './document-guard'
import { amountFigures, amountWithSymbol, documentDateTime, MODE_WORDS, watermarkOf } from './document-words'
import { cell, COLORS, createPdf, rule } from './pdf-document'

export interface PaymentAdvice {
  /** The payer: the profile's payer name (Settings), or its name. */
  payer: string
  beneficiary: string
  beneficiaryEmail: string | null
  /** The bank or mobile-money operator, by name. */
  institution: string
  kind: 'bank_account' | 'mobile_money'
  /** The account or mobile number, masked to its last digits. */
  account: string
  /** Exact decimal text. */
  amount: string
  currency: string
  fee: string | null
  narration: string
  reference: string
  batchReference: string | null
  traceId: string | null
  /** When the payout was confirmed paid (ISO 8601). */
  paidAt: string
  mode: ProfileMode
  /** Where the advice comes from: "Single payout" or "Bulk run … (file), row 12". */
  source: string
}

export interface AdviceOptions {
  issuedAt: Date
  /** The zone dates are told in; the desk's own by default. */
  timeZone?: string
}

export function adviceFileName(advice: Pick<PaymentAdvice, 'reference'>): string {
  return `Payment advice ${advice.reference.replace(/[^A-Za-z0-9_.-]+/g, '-')}.pdf`
}

export async function paymentAdvicePdf(advice: PaymentAdvice, options: AdviceOptions): Promise<Buffer> {
  assertPrintable('payment advice', {
    payer: advice.payer,
    beneficiary: advice.beneficiary,
    'beneficiary e-mail': advice.beneficiaryEmail,
    narration: advice.narration,
    reference: advice.reference,
    'trace ID': advice.traceId,
  })
  const issued = documentDateTime(options.issuedAt.toISOString(), options.timeZone)
  const writer = createPdf({
    title: `Payment advice ${advice.reference}`,
    subject: `Payment of ${amountFigures(advice.amount, advice.currency)} to ${advice.beneficiary}`,
    author: advice.payer,
    watermark: watermarkOf(advice.mode),
    footer: `Payment advice ${advice.reference} · issued ${issued} by Payout Desk`,
    pageCount: 1,
  })
  const { doc } = writer
  const x = writer.left
  let y = writer.top

  doc.font('bold').fontSize(20).fillColor(COLORS.text)
  cell(doc, 'Payment advice', x, y, writer.width)
  y += 30
  doc.font('regular').fontSize(11).fillColor(COLORS.muted)
  cell(doc, `From ${advice.payer}`, x, y, writer.width)
  y += 18
  if (advice.mode !== 'live') {
    doc.font('bold').fontSize(10).fillColor(COLORS.warning)
    cell(doc, `${MODE_WORDS[advice.mode]}. This advice is not a record of a real payment.`, x, y, writer.width)
    y += 18
  }
  y += 6

  // The amount, large, with its currency said in words next to it.
  doc.save().rect(x, y, writer.width, 64).fill(COLORS.band).restore()
  doc.font('regular').fontSize(9).fillColor(COLORS.muted)
  cell(doc, 'Amount paid', x + 14, y + 10, writer.width - 28)
  doc.font('bold').fontSize(24).fillColor(COLORS.text)
  cell(doc, amountWithSymbol(advice.amount, advice.currency), x + 14, y + 24, writer.width / 2)
  doc.font('regular').fontSize(10).fillColor(COLORS.muted)
  cell(doc, `Currency: ${advice.currency}`, x + writer.width / 2, y + 32, writer.width / 2 - 14, 'right')
  y += 80

  const facts: Array<[string, string]> = [
    ['Paid to', advice.beneficiary || '—'],
    ...(advice.beneficiaryEmail ? ([['E-mail', advice.beneficiaryEmail]] as Array<[string, string]>) : []),
    [advice.kind === 'bank_account' ? 'Bank' : 'Mobile money operator', advice.institution],
    [advice.kind === 'bank_account' ? 'Account' : 'Mobile number', advice.account || '—'],
    ['Amount', amountFigures(advice.amount, advice.currency)],
    ...(advice.fee ? ([['Fee', amountFigures(advice.fee, advice.currency)]] as Array<[string, string]>) : []),
    ['Narration', advice.narration || '—'],
    ['Reference', advice.reference],
    ...(advice.batchReference ? ([['Batch reference', advice.batchReference]] as Array<[string, string]>) : []),
    ['Trace ID', advice.traceId ?? 'not given by the service'],
    ['Paid on', documentDateTime(advice.paidAt, options.timeZone)],
    ['Paid by', advice.payer],
    ['Mode', MODE_WORDS[advice.mode]],
    ['Source', advice.source],
  ]
  const labelWidth = 150
  for (const [label, value] of facts) {
    doc.font('regular').fontSize(9.5).fillColor(COLORS.muted)
    cell(doc, label, x, y, labelWidth - 10)
    doc
      .font(label === 'Amount' || label === 'Reference' ? 'bold' : 'regular')
      .fontSize(10.5)
      .fillColor(COLORS.text)
    // A long narration wraps in its own column rather than being cut.
    const height = doc.heightOfString(value, { width: writer.width - labelWidth })
    doc.text(value, x + labelWidth, y, {
      width: writer.width - labelWidth,
      height: Math.min(height, 60),
      ellipsis: true,
    })
    y += Math.max(18, Math.min(height, 60) + 6)
    rule(writer, y - 5)
  }

  y += 14
  doc.font('regular').fontSize(8.5).fillColor(COLORS.muted)
  doc.text(
    `This advice was made by Payout Desk from the desk's own record of the payout, confirmed paid by the payments service. ` +
      `Quote the reference${advice.traceId ? ' or the trace ID' : ''} in any question about this payment.`,
    x,
    y,
    { width: writer.width },
  )
  return writer.finish()
}
