/**
 * Settings, Team, the team's limits (decision 138): one admin proposes a daily total, it waits for
 * a second admin (she cannot approve it herself, on screen or through the database), a second admin
 * approves it on his desk, and a preparer's desk shows it read-only. Three desks of one team (each a
 * bridge process with its own user data, against one real PostgreSQL).
 */
import AxeBuilder from '@axe-core/playwright'
import { expect, test } from '@playwright/test'
import type { Browser, Page } from '@playwright/test'
import { startSandbox, type RunningSandbox } from '../../electron/sandbox'
import { createTeamDatabase } from '../support/team-database'
import type { TeamDatabase, TeamMemberLogin } from '../support/team-database'
import { joinTeam, startTeamDesk } from './team-desks'
import type { TeamDeskProcess } from './team-desks'

const KEY = 'sk_test_team_limits_e2e'
let db: TeamDatabase
let sandbox: RunningSandbox
let ada: TeamMemberLogin
let ben: TeamMemberLogin
let pat: TeamMemberLogin
const desks: TeamDeskProcess[] = []

test.describe.configure({ mode: 'serial', timeout: 180_000 })

test.beforeAll(async () => {
  db = await createTeamDatabase('e2e_limits', 'Lagos payouts')
  ;[ada, ben, pat] = await Promise.all([
    db.addMember('ada', ['admin'], 'Ada Admin'),
    db.addMember('ben', ['admin'], 'Ben Admin'),
    db.addMember('pat', ['preparer'], 'Pat Preparer'),
  ])
  sandbox = await startSandbox({
    port: 0,
    secretKey: KEY,
    encryptionKey: 'team-e2e-encryption-key-32bytes!',
    settleMs: 300,
  })
})

test.afterAll(async () => {
  for (const desk of desks) await desk.close()
  await sandbox?.close()
})

async function open(browser: Browser, member: TeamMemberLogin, name: string): Promise<Page> {
  const made = await startTeamDesk({ label: name })
  desks.push(made)
  await joinTeam(made, { sandboxUrl: sandbox.url, sandboxKey: KEY, db, member, name })
  const page = await (await browser.newContext()).newPage()
  page.on('pageerror', (error) => console.error('page error:', error.message))
  await page.goto(made.appUrl)
  await expect(page.getByTestId('team-badge-state')).toHaveText('connected', { timeout: 20_000 })
  return page
}

test('a limit proposed by one admin waits for a second, who approves it; every member sees it', async ({ browser }) => {
  const [adaPage, benPage] = await Promise.all([open(browser, ada, 'Desk Ada'), open(browser, ben, 'Desk Ben')])

  // Ada proposes a daily total for NGN: it waits, and the team has no limit yet.
  await adaPage.getByTestId('nav-settings').click()
  const limits = adaPage.getByTestId('team-limits')
  await expect(limits.getByTestId('team-limits-none')).toHaveText('The team has set no limits.')
  await limits.getByTestId('team-limit-value').fill('3,000')
  await limits.getByTestId('team-limit-propose').click()
  const waiting = limits.getByTestId('team-limit-change-daily_total:NGN')
  await expect(waiting).toContainText('Daily total for NGN: not set → 3,000.00, refused')
  await expect(waiting).toContainText(`proposed by ${ada.login}`)
  await expect(waiting).toContainText('Another admin must approve it.')
  await expect(waiting.getByTestId('team-limit-change-approve')).toHaveCount(0)
  await expect(limits.getByTestId('team-limits-none')).toBeVisible()
  // Nor through the database, as herself.
  const client = db.client(ada.login, ada.password)
  await client.connect()
  await expect(
    client.query(
      `SELECT payout_desk.approve_limit_change('daily_total:NGN', '{"value":"3000.00","onBreach":"refuse"}')`,
    ),
  ).rejects.toThrow(/a second admin must approve it/)
  await client.end()

  // Ben approves it on his desk: in force, with who proposed and who approved it.
  await benPage.getByTestId('nav-settings').click()
  const benLimits = benPage.getByTestId('team-limits')
  // The team's limits are read after Settings opens: axe looks at them once they are on screen.
  await expect(benLimits.getByTestId('team-limit-change-daily_total:NGN')).toBeVisible()
  await axeClean(benPage)
  await benLimits.getByTestId('team-limit-change-daily_total:NGN').getByTestId('team-limit-change-approve').click()
  await expect(benLimits.getByTestId('team-limit-changes-none')).toHaveText('No change waits.')
  const rule = benLimits.getByTestId('team-limit-daily_total-NGN')
  await expect(rule).toContainText('Daily total for NGN: 3,000.00, refused')
  await expect(rule).toContainText(`proposed by ${ada.login}, approved by ${ben.login}`)

  // Pat, a preparer, sees it and proposes nothing.
  const patPage = await open(browser, pat, 'Desk Pat')
  await patPage.getByTestId('nav-settings').click()
  const patLimits = patPage.getByTestId('team-limits')
  await expect(patLimits.getByTestId('team-limit-daily_total-NGN')).toContainText('3,000.00, refused')
  await expect(patLimits.getByTestId('team-limits-sent')).toHaveText('You released today: nothing.')
  await expect(patLimits.getByTestId('team-limits-read-only')).toBeVisible()
  await expect(patLimits.getByTestId('team-limit-form')).toHaveCount(0)
})

/** axe on Settings, Team's limits in both themes: no serious or critical finding. */
async function axeClean(page: Page): Promise<void> {
  const found: string[] = []
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' })
    const results = await new AxeBuilder({ page })
      .include('[data-testid="team-limits"]')
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
      .analyze()
    for (const v of results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical'))
      found.push(`${theme} ${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`)
  }
  expect(found).toEqual([])
}
