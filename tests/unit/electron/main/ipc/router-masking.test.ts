/**
 * Error texts are a sink like the log (decision 26): an expected failure's message and details are
 * masked by main's one masking before they leave main, so a service or library that echoes a card
 * number, a CVV, a PIN or a key into its error cannot carry it to the screen.
 */
import { describe, expect, it } from 'vitest'
import { channelNames } from '../../../../../shared/ipc/contract'
import { AppFailure } from '../../../../../shared/result'
import { createRouter } from '../../../../../electron/main/ipc/router'
import type { ChannelHandlers } from '../../../../../electron/main/ipc/router'
import { bridgeSenderPolicy } from '../../../../../electron/main/ipc/sender-policy'
import { createRedactingLog } from '../../../../../electron/main/services/log/redacting-log'

function failingWith(failure: Error): ChannelHandlers {
  return Object.fromEntries(
    channelNames.map((name) => [
      name,
      () => {
        throw failure
      },
    ]),
  ) as unknown as ChannelHandlers
}

describe('IPC router: error texts', () => {
  it('masks card numbers, card-data fields and registered secrets in a failure’s message and details', async () => {
    const log = createRedactingLog({ error: () => undefined, warn: () => undefined })
    log.addSecret('sk_test_router_masking_0001')
    const release = log.holdSecrets(['739'])
    const router = createRouter({
      handlers: failingWith(
        new AppFailure(
          'rejected',
          'The service said: card 4084 1278 8317 2787 declined, cvv=739 (key sk_test_router_masking_0001)',
          {
            issues: [{ path: 'card.cvv', message: 'CVV 739 is wrong' }],
            echoed: { pin: '1234', otp: 123456, note: 'pin given' },
          },
        ),
      ),
      senderPolicy: bridgeSenderPolicy,
      log,
    })
    const result = await router.handle(
      'charges:verify',
      { reference: 'CHG-00000001' },
      { transport: 'bridge', origin: null },
    )
    release()
    expect(result).toEqual({
      ok: false,
      error: {
        code: 'rejected',
        message: 'The service said: card [redacted] declined, cvv=[redacted] (key [redacted])',
        details: {
          issues: [{ path: 'card.cvv', message: 'CVV [redacted] is wrong' }],
          echoed: { pin: '[redacted]', otp: '[redacted]', note: 'pin given' },
        },
      },
    })
  })

  it('masks by field and pattern even without main’s log (what the unit tests of the router use)', async () => {
    const router = createRouter({
      handlers: failingWith(
        new AppFailure('bad_request', 'card 5188513618552975 refused', { pan: '5188513618552975' }),
      ),
      senderPolicy: bridgeSenderPolicy,
    })
    const result = await router.handle('payouts:list', undefined, { transport: 'bridge', origin: null })
    expect(result).toEqual({
      ok: false,
      error: { code: 'bad_request', message: 'card [redacted] refused', details: { pan: '[redacted]' } },
    })
  })
})
