/**
 * Settings, Team, Members (decision 104): giving someone the approver role needs a second admin.
 * Three desks of one team (each a bridge process with its own user data, against one real
 * PostgreSQL), driven on screen: admin Ada gives Musa (a preparer) the approver role; Settings
 * shows it waiting for a second admin, Ada cannot confirm her own request, and Musa cannot approve
 * the run waiting for approval (his desk offers nothing; the database refuses him). Admin Ben
 * confirms it; the role is in force: Musa's desk shows it, offers the run, and his approval counts.
 */
import AxeBuilder from '@axe-core/playwright'
import { expect, test } from '@playwright/test'
import type { Browser, Page } from '@playwright/test'
import { startSandbox, type RunningSandbox } from '../../electron/sandbox'
import { runContentHash, runContentTotal } from '../../shared/team/run-content'
import type { TeamRunContent } from '../../shared/domain/team'
import { createTeamDatabase } from '../support/team-database'
import type { TeamDatabase, TeamMemberLogin } from '../support/team-database'
import { joinTeam, startTeamDesk } from './team-desks'
import type { TeamDeskProcess } from './team-desks'

const KEY = 'sk_test_team_members_e2e'
let db: TeamDatabase
let sandbox: RunningSandbox
let ada: TeamMemberLogin
let ben: TeamMemberLogin
let musa: TeamMemberLogin
let pat: TeamMemberLogin
const desks: TeamDeskProcess[] = []

test.describe.configure({ mode: 'serial', timeout: 180_000 })

test.beforeAll(async () => {
  db = await createTeamDatabase('e2e_members', 'Lagos payouts')
  ;[ada, ben, musa, pat] = await Promise.all([
    db.addMember('ada', ['admin'], 'Ada Admin'),
    db.addMember('ben', ['admin'], 'Ben Admin'),
    db.addMember('musa', ['preparer'], 'Musa Bello'),
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

/** A member's direct SQL connection with a desk registered (what psql gives them). */
async function sql(member: TeamMemberLogin, text: string, values: unknown[]) {
  const client = db.client(member.login, member.password)
  await client.connect()
  try {
    await client.query(`SELECT payout_desk.register_desk($1, 'psql')`, [`psql-${member.login.replace(/_/g, '-')}`])
    return await client.query(text, values)
  } finally {
    await client.end()
  }
}
const deskOf = (member: TeamMemberLogin) => `psql-${member.login.replace(/_/g, '-')}`

/** Musa's desk reads who he is again (the roles in force are read on connecting). */
async function reconnect(page: Page): Promise<void> {
  await page.getByTestId('nav-settings').click()
  const section = page.getByTestId('team-settings')
  await section.getByTestId('team-disconnect').click()
  await expect(section.getByTestId('team-state')).toHaveText('Not connected')
  await section.getByTestId('team-connect').click()
  await expect(section.getByTestId('team-state')).toHaveText('Connected', { timeout: 20_000 })
}

test('the approver role given by one admin waits for a second; until then the member cannot approve; once confirmed it is in force', async ({
  browser,
}) => {
  // A run Pat prepared, waiting for approval (two approvers: no threshold is set).
  const runId = `BR-members-${Date.now()}`
  const content: TeamRunContent = {
    currency: 'NGN',
    merchantBearsCost: false,
    description: 'Members test',
    rows: [1, 2].map((i) => ({
      reference: `MEM-${runId.slice(-6)}-${i}`,
      amount: `${1000 + i}.00`,
      bank_code: '044',
      account_number: String(3_000_000_000 + i),
      customer_name: `Payee ${i}`,
      customer_email: `m${i}@example.com`,
      narration: 'March',
    })),
  }
  const hash = await runContentHash(content)
  await sql(pat, 'SELECT payout_desk.create_run($1, $2, $3, $4, $5, $6)', [
    runId,
    'Members run',
    deskOf(pat),
    content,
    hash,
    null,
  ])
  await sql(pat, 'SELECT payout_desk.submit_run($1, 1, $2, $3)', [runId, hash, deskOf(pat)])
  const total = runContentTotal(content.rows)

  const [adaPage, musaPage] = await Promise.all([open(browser, ada, 'Desk Ada'), open(browser, musa, 'Desk Musa')])

  // Ada, in Settings, Team: Musa is a preparer; she gives him the approver role.
  await adaPage.getByTestId('nav-settings').click()
  const members = adaPage.getByTestId('team-members')
  const musaRow = members.getByTestId(`team-member-row-${musa.login}`)
  await expect(musaRow.getByTestId('team-member-roles')).toHaveText('preparer')
  await expect(adaPage.getByTestId('team-member-changes-none')).toHaveText('Nothing waits for a second admin.')
  await musaRow.getByTestId(`team-member-edit-${musa.login}`).click()
  await musaRow.getByTestId('team-member-role-approver').click()
  await musaRow.getByTestId('team-member-roles-save').click()
  await expect(members.getByTestId('team-members-notice')).toHaveText(
    `${musa.login}: in force now: preparer. The approver role waits for a second admin to confirm.`,
  )
  // Not in force: the list still says preparer, and the request waits, which Ada cannot confirm herself.
  await expect(musaRow.getByTestId('team-member-roles')).toHaveText('preparer')
  const waiting = adaPage.getByTestId(`team-member-change-${musa.login}-approver`)
  await expect(waiting).toContainText(`Musa Bello (${musa.login}): the approver role`)
  await expect(waiting).toContainText(`asked by ${ada.login}`)
  await expect(waiting).toContainText('Another admin must confirm it.')
  await expect(waiting.getByTestId('team-member-change-confirm')).toHaveCount(0)
  // Nor through the database, as herself.
  await expect(sql(ada, 'SELECT payout_desk.confirm_member_change($1, $2)', [musa.login, 'approver'])).rejects.toThrow()

  // Musa cannot approve yet: his desk still says preparer and offers no approval; the database refuses him (approve_run is granted to approvers only).
  await reconnect(musaPage)
  await expect(musaPage.getByTestId('team-roles')).toHaveText('preparer')
  await musaPage.getByTestId('nav-approvals').click()
  await expect(musaPage.getByTestId(`team-run-${runId}`)).toBeVisible({ timeout: 20_000 })
  await expect(musaPage.getByTestId('approvals-none')).toHaveText('Nothing awaits your approval.')
  await expect(musaPage.getByTestId(`approval-${runId}`)).toHaveCount(0)
  await expect(
    sql(musa, 'SELECT payout_desk.approve_run($1, 1, $2, $3, $4)', [runId, hash, total, deskOf(musa)]),
  ).rejects.toThrow(/permission denied for function approve_run/)

  // Ben, a second admin, confirms it on his desk.
  const benPage = await open(browser, ben, 'Desk Ben')
  await benPage.getByTestId('nav-settings').click()
  const benWaiting = benPage.getByTestId(`team-member-change-${musa.login}-approver`)
  await expect(benWaiting).toContainText(`asked by ${ada.login}`)
  await axeClean(benPage)
  await benWaiting.getByTestId('team-member-change-confirm').click()
  await expect(benPage.getByTestId('team-member-changes-none')).toHaveText('Nothing waits for a second admin.')
  await expect(benPage.getByTestId(`team-member-row-${musa.login}`).getByTestId('team-member-roles')).toHaveText(
    'approver, preparer',
  )

  // In force: Musa's desk says so, offers the run, and his approval is recorded.
  await reconnect(musaPage)
  await expect(musaPage.getByTestId('team-roles')).toHaveText('approver, preparer')
  await musaPage.getByTestId('nav-approvals').click()
  const card = musaPage.getByTestId(`approval-${runId}`)
  await expect(card.getByTestId('approval-count')).toHaveText('0 of 2', { timeout: 20_000 })
  await card.getByLabel('Type the total to approve').fill(total)
  await card.getByTestId('approval-approve').click()
  await expect(musaPage.getByTestId(`team-run-${runId}`).getByTestId('team-run-approved-by')).toHaveText(musa.login)
  const approvals = await db.asOwner((client) =>
    client.query<{ decided_by: string }>(
      `SELECT decided_by FROM payout_desk.run_decisions WHERE run_id = $1 AND decision = 'approved' ORDER BY decided_by`,
      [runId],
    ),
  )
  expect(approvals.rows.map((row) => row.decided_by)).toEqual([musa.login])
})

/** axe on Settings, Team's member sections in both themes: no serious or critical finding. */
async function axeClean(page: Page): Promise<void> {
  const found: string[] = []
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' })
    const results = await new AxeBuilder({ page })
      .include('[data-testid="team-members"]')
      .include('[data-testid="team-member-changes"]')
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
      .analyze()
    for (const v of results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical'))
      found.push(`${theme} ${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`)
  }
  expect(found).toEqual([])
}
