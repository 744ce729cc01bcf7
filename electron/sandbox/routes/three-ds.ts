/**
 * The 3DS page a customer's browser opens (authorization.redirect_url). It is public: a browser
 * window carries no secret key, only the unguessable transaction reference.
 */
import { formatMinorUnits } from '../../../shared/money'
import type { Reply } from '../replies'
import type { Route, SandboxContext } from '../routing'
import type { ChargeRecord } from '../state'
import { submitOtp } from './charges'

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c)

function page(status: number, title: string, body: string): Reply {
  return {
    status,
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
    text: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`,
  }
}

function awaiting3ds(reference: string | undefined, context: SandboxContext): ChargeRecord | Reply {
  const charge = context.state.chargesByTransaction.get(reference ?? '')
  if (!charge) return page(404, 'Transaction not found', '<p>No payment is waiting for this link.</p>')
  if (charge.status !== 'processing' || charge.authModel !== '3DS') {
    return page(
      409,
      'Transaction has already been completed',
      '<p>This payment is no longer awaiting authentication.</p>',
    )
  }
  return charge
}

export const threeDsRoutes: Route[] = [
  {
    method: 'GET',
    pattern: '/sandbox/3ds/:transaction_reference',
    public: true,
    handler: (request, context) => {
      const found = awaiting3ds(request.params.transaction_reference, context)
      if (!('paymentReference' in found)) return found
      return page(
        200,
        'Sandbox bank: 3D Secure',
        `<p>Pay NGN ${formatMinorUnits(found.amountMinor)} with card ${escapeHtml(found.firstSix)}******${escapeHtml(found.lastFour)}.</p>` +
          `<p>Enter the OTP (test OTP: 123456).</p>` +
          `<form method="post"><label>OTP <input name="otp" autocomplete="one-time-code" inputmode="numeric" autofocus></label>` +
          `<button type="submit">Authorize</button></form>`,
      )
    },
  },
  {
    method: 'POST',
    pattern: '/sandbox/3ds/:transaction_reference',
    public: true,
    bodyKind: 'form',
    handler: (request, context) => {
      const found = awaiting3ds(request.params.transaction_reference, context)
      if (!('paymentReference' in found)) return found
      const fields = request.body as Record<string, string>
      submitOtp(found, fields.otp ?? '')
      if (found.redirectUrl) {
        const target = new URL(found.redirectUrl)
        target.searchParams.set('reference', found.paymentReference)
        return { status: 302, headers: { location: target.toString() } }
      }
      return page(
        200,
        found.status === 'success' ? 'Payment complete' : 'Payment failed',
        `<p>${escapeHtml(found.responseMessage)}. You may close this window.</p>`,
      )
    },
  },
]
