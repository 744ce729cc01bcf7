/**
 * Card data typed where it does not belong, as a person might (decision 26): a metadata key named
 * `pin`, a card number as a metadata value, a card number in the narration. The form says why, up
 * front, under the metadata; what the form does not read for card data is refused by main with a
 * message naming the field, never as an internal error. Nothing is journaled or sent either way (and
 * the run's final secret scan finds the card number in no file).
 */
import type { Page } from '@playwright/test'
import { test, expect } from './fixtures'

const CARD = '4084 1278 8317 2787'

async function chooseOption(page: Page, selectTestId: string, search: string, option: RegExp): Promise<void> {
  await page.getByTestId(selectTestId).click()
  await page.keyboard.type(search)
  await page.locator('.n-base-select-option', { hasText: option }).first().click()
}

test('a metadata key "pin" and a card number as a value are refused up front, with the reason; a card number in the narration by main', async ({
  app,
}) => {
  const { page } = app
  await expect(page.getByTestId('payout-reference')).not.toHaveValue('')
  const reference = await page.getByTestId('payout-reference').inputValue()
  await chooseOption(page, 'payout-bank', '044', /Access Bank \(044\)/)
  await page.getByTestId('payout-account').fill('0123456789')
  await expect(page.getByTestId('payout-resolved-name')).not.toBeEmpty()
  await page.getByTestId('payout-amount').fill('250.00')
  await page.getByTestId('payout-customer-email').fill('ada@example.com')
  await page.getByTestId('payout-narration').fill('Invoice 42')

  await page.getByTestId('metadata-add').click()
  await page.getByTestId('metadata-key-0').fill('pin')
  await page.getByTestId('metadata-value-0').fill('1234')
  await expect(page.getByTestId('error-metadata')).toHaveText(
    'Key "pin" is the name of a card PIN: metadata is sent in the clear and kept in this desk\'s journal, where card data and secrets never go. Use another name.',
  )
  await page.getByTestId('payout-review').click()
  await expect(page.getByTestId('payout-review-step')).toHaveCount(0)

  await page.getByTestId('metadata-key-0').fill('note')
  await page.getByTestId('metadata-value-0').fill(CARD)
  await expect(page.getByTestId('error-metadata')).toHaveText(
    'The value of key "note" looks like a card number: card numbers are never sent as metadata or kept in this desk\'s journal. Remove it.',
  )
  await page.getByTestId('payout-review').click()
  await expect(page.getByTestId('payout-review-step')).toHaveCount(0)
  await app.screenshot('payouts-metadata-card-number')

  // The form does not read the narration for card data: main's journal guard refuses it, by name.
  await page.getByTestId('metadata-value-0').fill('INV-42')
  await expect(page.getByTestId('error-metadata')).toHaveCount(0)
  await page.getByTestId('payout-narration').fill(`Refund to card ${CARD}`)
  await page.getByTestId('payout-review').click()
  await page.getByTestId('payout-send').click()
  const error = page.getByTestId('payout-review-step').getByTestId('result-error')
  await expect(error.getByTestId('result-error-message')).toHaveText(
    'The journal refused request.destination.narration: it looks like a card number, and card numbers are never journaled; nothing was written or sent.',
  )
  await expect(error).toHaveAttribute('data-code', 'bad_request')

  // Nothing journaled, nothing at the service.
  expect(app.running.services.journal.has(reference)).toBe(false)
  const { secretKey } = await app.running.services.profiles.credentialsOf('sandbox')
  const atService = (await (
    await fetch(`${app.sandboxUrl}/merchant/api/v1/payouts?limit=100`, {
      headers: { authorization: `Bearer ${secretKey}` },
    })
  ).json()) as { data: Array<{ reference: string }> }
  expect(atService.data.filter((item) => item.reference === reference)).toEqual([])
  // The card number never crossed back to the page in any answer either.
  expect(app.responses.some((body) => body.includes('4084127883172787') || body.includes(CARD))).toBe(false)
})
