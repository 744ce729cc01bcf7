/**
 * Settings, Team (decision 38): a profile joins its team's PostgreSQL database (a real server, started
 * for this test run by tests/support/postgres.ts), the desk shows the team, the member's roles and
 * the connection state, says at once when the connection is lost and comes back by itself, and
 * verifies the team's audit trail. The section passes axe in both themes while connected.
 */
import AxeBuilder from '@axe-core/playwright'
import { asSuperuser } from '../support/postgres'
import { createTeamDatabase } from '../support/team-database'
import type { TeamDatabase, TeamMemberLogin } from '../support/team-database'
import { expect, test } from './fixtures'

let db: TeamDatabase
let member: TeamMemberLogin

test.beforeAll(async () => {
  db = await createTeamDatabase('e2e_settings', 'Lagos payouts')
  member = await db.addMember('ngozi', ['preparer', 'approver'], 'Ngozi Eze')
})

test.describe.configure({ timeout: 120_000 })

test('a profile joins its team, shows who it is, survives a lost connection and verifies the audit trail', async ({
  app,
}) => {
  const { page } = app
  await page.getByTestId('nav-settings').click()
  const section = page.getByTestId('team-settings')
  await expect(section.getByTestId('team-state')).toHaveText('Solo: this desk works alone')

  // Filled by their labels, as a screen reader finds them.
  await section.getByLabel('Database host').fill('127.0.0.1')
  await section.getByLabel('Port').fill(String(db.server.port))
  await section.getByLabel('Database', { exact: true }).fill(db.database)
  await section.getByLabel('Your user name').fill(member.login)
  await section.getByLabel('Password').fill(member.password)
  await section.getByTestId('team-save').click()
  await expect(section.getByTestId('team-state')).toHaveText('Not connected')
  await expect(section.getByTestId('team-tls')).toHaveText('No TLS: allowed because the database is on this computer')
  await expect(section.getByTestId('team-password')).toHaveValue('')
  await expect(section.getByTestId('team-password')).toHaveAttribute('placeholder', /Saved in the keychain/)

  await section.getByTestId('team-connect').click()
  await expect(section.getByTestId('team-state')).toHaveText('Connected')
  await expect(section.getByTestId('team-name')).toHaveText('Lagos payouts')
  await expect(section.getByTestId('team-member')).toHaveText(`Ngozi Eze (${member.login})`)
  await expect(section.getByTestId('team-roles')).toHaveText('approver, preparer')
  await app.screenshot('settings-team-connected')

  // The server drops the desk's connections: the screen says so at once, then the desk is back.
  await asSuperuser(db.server, (client) =>
    client.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = $1', [member.login]),
  )
  await expect(section.getByTestId('team-state')).toHaveText('Connection lost: reconnecting', { timeout: 5_000 })
  await expect(section.getByTestId('team-message')).toContainText('nothing new is claimed meanwhile')
  await expect(section.getByTestId('team-state')).toHaveText('Connected', { timeout: 15_000 })

  await section.getByTestId('team-verify-audit').click()
  await expect(section.getByTestId('team-audit-ok')).toContainText('checked on this desk and by the database')

  // The password never crossed to the renderer, nor was it written in settings.json.
  expect(app.responses.some((body) => body.includes(member.password))).toBe(false)

  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' })
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme)
    const results = await new AxeBuilder({ page })
      .include('[data-testid="team-settings"]')
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
      .analyze()
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    expect(
      serious.map(
        (v) =>
          `${theme} ${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ') + ' ' + n.failureSummary).join(' | ')}`,
      ),
    ).toEqual([])
  }

  await section.getByTestId('team-forget').click()
  await expect(section.getByTestId('team-state')).toHaveText('Solo: this desk works alone')
})
