/**
 * Closing a period in team mode on screen (decision 149), against a real PostgreSQL and the
 * simulator: a payout made with the key by nobody in the team is explained on Bob's desk, which
 * then shows it awaiting a second member and keeps Close disabled; Cat's desk shows Bob's
 * explanation with Confirm, and once she confirms, Bob closes the period and Cat's desk shows it
 * closed by Bob.
 */
import { expect, test } from '@playwright/test'
import type { Browser, Page } from '@playwright/test'
import { startSandbox, type RunningSandbox } from '../../electron/sandbox'
import { createTeamDatabase } from '../support/team-database'
import type { TeamDatabase, TeamMemberLogin } from '../support/team-database'
import { seriousViolations } from './axe'
import { joinTeam, startTeamDesk } from './team-desks'
import type { TeamDeskProcess } from './team-desks'

const KEY = 'sk_test_team_reconcile_e2e'
const ELSEWHERE = 'TEAM-ELSEWHERE-1'
let db: TeamDatabase
let sandbox: RunningSandbox
let bob: TeamMemberLogin
let cat: TeamMemberLogin
const desks: TeamDeskProcess[] = []

test.describe.configure({ mode: 'serial', timeout: 180_000 })

test.beforeAll(async () => {
  db = await createTeamDatabase('e2e_recon', 'Lagos payouts')
  ;[bob, cat] = await Promise.all([
    db.addMember('bob', ['approver'], 'Bob Bookkeeper'),
    db.addMember('cat', ['approver'], 'Cat Controller'),
  ])
  sandbox = await startSandbox({
    port: 0,
    secretKey: KEY,
    encryptionKey: 'team-e2e-recon-encryption-key-32',
    settleMs: 100,
    admin: true,
  })
})

test.afterAll(async () => {
  for (const made of desks) await made.close()
  await sandbox?.close()
})

async function deskPage(browser: Browser, member: TeamMemberLogin, label: string) {
  const desk = await startTeamDesk({ label })
  desks.push(desk)
  await joinTeam(desk, { sandboxUrl: sandbox.url, sandboxKey: KEY, db, member, name: `Desk ${label}` })
  const page = await (await browser.newContext()).newPage()
  page.on('pageerror', (error) => console.error('page error:', error.message))
  await page.goto(desk.appUrl)
  await expect(page.getByTestId('team-badge-state')).toHaveText('connected', { timeout: 20_000 })
  await page.getByTestId('nav-reconciliation').click()
  return page
}

async function reconcile(page: Page): Promise<void> {
  await page.getByTestId('recon-start').click()
  await expect(page.getByTestId(`recon-exception-${ELSEWHERE}`)).toHaveAttribute('data-state', 'service_only', {
    timeout: 30_000,
  })
}

test('a payout from elsewhere closes only once a second member confirmed its explanation; closed on every desk', async ({
  browser,
}) => {
  const made = await fetch(`${sandbox.url}/__sandbox/payouts/elsewhere`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      reference: ELSEWHERE,
      destination: {
        type: 'bank_account',
        amount: 700,
        currency: 'NGN',
        narration: 'November',
        bank_account: { bank: '044', account: '0123456789' },
        customer: { name: 'Nobody We Know', email: 'x@example.com' },
      },
    }),
  })
  expect(made.ok).toBe(true)

  const onBob = await deskPage(browser, bob, 'recon-bob')
  await reconcile(onBob)
  const row = onBob.getByTestId(`recon-exception-${ELSEWHERE}`)
  await onBob.getByTestId(`recon-explain-${ELSEWHERE}`).click()
  await onBob.getByTestId('recon-explain-reason').click()
  await onBob.locator('.n-base-select-option', { hasText: 'Made by a tool or person we authorised' }).click()
  await onBob.getByTestId('recon-explain-note').fill('Payroll script run by the bank')
  await onBob.getByTestId('recon-explain-save').click()
  await expect(row.getByTestId('recon-exception-second')).toContainText(
    `Awaiting a second member of the team: someone other than ${bob.login} confirms it`,
  )
  await expect(row.getByTestId(`recon-confirm-${ELSEWHERE}`)).toHaveCount(0)
  await expect(onBob.getByTestId('recon-close-awaiting-second')).toContainText(
    '1 payout made with the key by nobody in the team needs a second member',
  )
  await expect(onBob.getByTestId('recon-close-period')).toBeDisabled()

  const onCat = await deskPage(browser, cat, 'recon-cat')
  await reconcile(onCat)
  const catRow = onCat.getByTestId(`recon-exception-${ELSEWHERE}`)
  await expect(catRow.getByTestId('recon-exception-explanation')).toContainText('Payroll script run by the bank')
  for (const theme of ['light', 'dark'] as const) {
    await onCat.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' })
    expect(await seriousViolations(onCat, '[data-testid="screen-reconciliation"]')).toEqual([])
  }
  await catRow.getByTestId(`recon-confirm-${ELSEWHERE}`).click()
  await expect(catRow.getByTestId('recon-exception-second')).toContainText(`Confirmed by ${cat.login}`)

  await reconcile(onBob)
  await expect(onBob.getByTestId('recon-close-period')).toBeEnabled()
  await onBob.getByTestId('recon-close-period').click()
  await expect(onBob.getByTestId('recon-closed')).toContainText(`Closed by ${bob.login}`, { timeout: 30_000 })

  await reconcile(onCat)
  await expect(onCat.getByTestId('recon-closed')).toContainText(`Closed by ${bob.login}`)
})
