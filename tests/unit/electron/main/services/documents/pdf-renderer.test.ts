/**
 * The PDF worker as documents-domain uses it: several documents drawn in turn by one worker, each
 * coming back whole; a document that breaks in the worker, or a worker stopped while drawing,
 * fails with an error naming the document instead of hanging.
 */
import { describe, expect, it } from 'vitest'
import { openPdfRenderer, pdfWorkers, renderPdf } from '../../../../../../electron/main/services/documents/pdf-renderer'
import type { PaymentAdvice } from '../../../../../../electron/main/services/documents/payment-advice'
import type { RunSummary } from '../../../../../../electron/main/services/documents/run-summary'
import { pdfPages } from '../../../../../support/pdf'

const ADVICE: PaymentAdvice = {
  payer: 'Acme Trading Ltd',
  beneficiary: 'Zoë Müller',
  beneficiaryEmail: 'zoe@example.com',
  institution: 'Guaranty Trust Bank',
  kind: 'bank_account',
  account: '••••••6789',
  amount: '1500.50',
  currency: 'NGN',
  fee: '53.75',
  narration: 'March rent',
  reference: 'PAY-1',
  batchReference: null,
  traceId: 'TRACE-1',
  paidAt: '2026-11-23T19:50:12Z',
  mode: 'live',
  source: 'Single payout',
}
const OPTIONS = { issuedAt: new Date('2026-11-24T08:00:00Z'), timeZone: 'UTC' }

describe('the PDF worker', () => {
  it('draws the documents of one job in turn, each whole and its own', async () => {
    const renderer = openPdfRenderer()
    try {
      const references = ['PAY-1', 'PAY-2', 'PAY-3']
      const all = await Promise.all(
        references.map((reference) =>
          renderer.render({ kind: 'advice', input: { ...ADVICE, reference }, options: OPTIONS }),
        ),
      )
      all.forEach((bytes, i) => {
        expect(bytes).toBeInstanceOf(Uint8Array)
        expect(pdfPages(Buffer.from(bytes)).join('\n')).toContain(references[i])
      })
    } finally {
      renderer.close()
    }
  })

  it('a document that breaks in the worker fails with an error naming it', async () => {
    const broken = { input: { runId: 'BR1' }, lines: null } as unknown as RunSummary
    await expect(renderPdf({ kind: 'summary', input: broken, options: OPTIONS })).rejects.toMatchObject({
      code: 'internal',
      message: expect.stringMatching(/^The run summary was not made: /),
    })
  })

  it('a worker stopped while drawing fails the document, naming it, and draws nothing more', async () => {
    const renderer = openPdfRenderer()
    const drawing = renderer.render({ kind: 'advice', input: ADVICE, options: OPTIONS })
    renderer.close()
    await expect(drawing).rejects.toThrow('The payment advice was not made: its PDF worker was stopped.')
    await expect(renderer.render({ kind: 'advice', input: ADVICE, options: OPTIONS })).rejects.toThrow(
      'The payment advice was not made: its PDF worker was stopped.',
    )
  })

  it('keeps its worker for the next job after a clean one, and ends it after a document failed (decision 122)', async () => {
    const advice = (reference: string) =>
      renderPdf({ kind: 'advice', input: { ...ADVICE, reference }, options: OPTIONS }).then((bytes) =>
        pdfPages(Buffer.from(bytes)).join('\n'),
      )
    await advice('WARM-0')
    const before = pdfWorkers.started
    await expect(advice('WARM-1')).resolves.toContain('WARM-1')
    await expect(advice('WARM-2')).resolves.toContain('WARM-2')
    expect(pdfWorkers.started).toBe(before)

    const broken = { input: { runId: 'BR1' }, lines: null } as unknown as RunSummary
    await expect(renderPdf({ kind: 'summary', input: broken, options: OPTIONS })).rejects.toThrow(
      /^The run summary was not made: /,
    )
    await expect(advice('AFTER')).resolves.toContain('AFTER')
    expect(pdfWorkers.started).toBe(before + 1)
  })
})
