/**
 * The Approvals card shows every payee flag and confirmation of a team run (decision 135), against
 * a real PostgreSQL: a run shared with its rows' payee checks (as Alice's desk shares them, here
 * through her own database connection) is on Bob's Approvals screen with the flags counted by kind
 * and listed row by row; Approve waits while a changed or shared account is held; Bob records how
 * he confirmed each (a signed letter with a note; "other" is refused without one), the card shows
 * who, how, when and the note, and the run is then approved.
 */
import { expect, test } from '@playwright/test'
import { startSandbox, type RunningSandbox } from '../../electron/sandbox'
import { runContentHash, runContentTotal } from '../../shared/team/run-content'
import type { TeamRowPayee, TeamRunContent } from '../../shared/domain/team'
import { createTeamDatabase } from '../support/team-database'
import type { TeamDatabase, TeamMemberLogin } from '../support/team-database'
import { seriousViolations } from './axe'
import { joinTeam, startTeamDesk } from './team-desks'
import type { TeamDeskProcess } from './team-desks'

const KEY = 'sk_test_team_payee_checks_e2e'
let db: TeamDatabase
let sandbox: RunningSandbox
let alice: TeamMemberLogin
let bob: TeamMemberLogin
const desks: TeamDeskProcess[] = []

test.describe.configure({ mode: 'serial', timeout: 120_000 })

test.beforeAll(async () => {
  db = await createTeamDatabase('e2e_payees', 'Lagos payouts')
  await db.asOwner((c) => c.query(`SELECT payout_desk.set_threshold('NGN', '100000000.00')`))
  ;[alice, bob] = await Promise.all([
    db.addMember('alice', ['preparer'], 'Alice Preparer'),
    db.addMember('bob', ['approver'], 'Bob Approver'),
  ])
  sandbox = await startSandbox({
    port: 0,
    secretKey: KEY,
    encryptionKey: 'team-e2e-payee-encryption-key-32',
    settleMs: 300,
  })
})

test.afterAll(async () => {
  for (const made of desks) await made.close()
  await sandbox?.close()
})

const content: TeamRunContent = {
  currency: 'NGN',
  merchantBearsCost: false,
  description: 'November payroll',
  rows: [1, 2, 3, 4].map((i) => ({
    reference: `NOV-000${i}`,
    amount: `${1000 + i}.00`,
    bank_code: '044',
    account_number: String(1_000_000_000 + i),
    customer_name: `Payee ${i}`,
    customer_email: `p${i}@example.com`,
    narration: 'November',
  })),
}

const payees: TeamRowPayee[] = [
  {
    position: 2,
    payeeId: 'EMP-002',
    payeeKey: 'id:emp-002',
    accountKey: 'bank:044:1000000002',
    tripwires: [
      {
        kind: 'account_changed',
        words: 'Account changed: Payee 2 was last paid to 058 ••••••0002 on 31 Oct 2026.',
      },
    ],
  },
  {
    position: 3,
    payeeKey: 'email:p3@example.com',
    accountKey: 'bank:044:1000000003',
    tripwires: [{ kind: 'shared_account', words: 'Shared account: Payee 9 is paid to this account too.' }],
  },
  {
    position: 4,
    payeeKey: 'email:p4@example.com',
    accountKey: 'bank:044:1000000004',
    tripwires: [{ kind: 'unusual_amount', words: 'Unusual amount: 4 times the usual 250.00 NGN.' }],
  },
]

/** Alice shares and submits the run through her own database connection, with its payee checks. */
async function aliceShares(runId: string): Promise<string> {
  const hash = await runContentHash(content)
  const client = db.client(alice.login, alice.password)
  await client.connect()
  try {
    await client.query(`SELECT payout_desk.register_desk('psql-alice', 'psql')`)
    await client.query('SELECT payout_desk.create_run($1, $2, $3, $4, $5, NULL)', [
      runId,
      'November payroll',
      'psql-alice',
      { ...content, payees },
      hash,
    ])
    await client.query(`SELECT payout_desk.submit_run($1, 1, $2, 'psql-alice')`, [runId, hash])
  } finally {
    await client.end()
  }
  return hash
}

test('the approver sees every flag and confirmation on the Approvals card, confirms the held accounts, then approves', async ({
  browser,
}) => {
  const bobDesk = await startTeamDesk({ label: 'payees-bob' })
  desks.push(bobDesk)
  await joinTeam(bobDesk, { sandboxUrl: sandbox.url, sandboxKey: KEY, db, member: bob, name: 'Desk Bob' })
  const runId = `nov-${Date.now()}`
  await aliceShares(runId)

  const page = await (await browser.newContext()).newPage()
  page.on('pageerror', (error) => console.error('page error:', error.message))
  await page.goto(bobDesk.appUrl)
  await expect(page.getByTestId('team-badge-state')).toHaveText('connected', { timeout: 20_000 })
  await page.getByTestId('nav-approvals').click()
  const card = page.getByTestId(`approval-${runId}`)
  const checks = card.getByTestId(`approval-payee-checks-${runId}`)
  await expect(checks.getByTestId('approval-payees-count-account_changed')).toHaveText('Account changed: 1 row')
  await expect(checks.getByTestId('approval-payees-count-shared_account')).toHaveText('Shared account: 1 row')
  await expect(checks.getByTestId('approval-payees-count-unusual_amount')).toHaveText('Unusual amount: 1 row')
  await expect(checks.getByTestId('approval-payees-count-new_account')).toHaveCount(0)
  await expect(checks.getByTestId('approval-payees-held')).toContainText('2 rows held for a changed or shared account')
  const changed = checks.getByTestId('approval-payee-row-NOV-0002')
  await expect(changed).toContainText('Payee 2 (EMP-002)')
  await expect(changed).toContainText('Account changed: Payee 2 was last paid to 058 ••••••0002 on 31 Oct 2026.')
  await expect(changed.getByTestId('approval-payee-confirmation')).toContainText(
    'Held: account changed, awaiting confirmation.',
  )
  await expect(checks.getByTestId('approval-payee-row-NOV-0004').getByTestId('approval-payee-confirmation')).toHaveText(
    'Not held',
  )
  // Approve waits while a row is held, as the database would refuse it.
  await card.getByLabel('Type the total to approve').fill(runContentTotal(content.rows))
  await expect(card.getByTestId('approval-approve')).toBeDisabled()
  await expect(card.getByTestId('approval-held-note')).toHaveText(
    'Approve waits: 2 rows held for a changed or shared account.',
  )

  // Bob confirms the changed account: a signed letter, with a note.
  await changed.getByTestId('approval-confirm-NOV-0002').click()
  await expect(changed.getByLabel('How was it confirmed?')).toBeFocused()
  await changed.getByLabel('How was it confirmed?').selectOption('signed_letter')
  await changed
    .getByTestId('approval-confirm-note')
    .locator('textarea')
    .fill('Letter dated 3 November, signed by Payee 2')
  await changed.getByTestId('approval-confirm-record').click()
  await expect(changed.getByTestId('approval-payee-confirmation')).toContainText(`Confirmed by ${bob.login}`)
  await expect(changed.getByTestId('approval-payee-confirmation')).toContainText(
    'Signed letter ("Letter dated 3 November, signed by Payee 2")',
  )
  // "Other" needs a note: refused on the card before it leaves.
  const shared = checks.getByTestId('approval-payee-row-NOV-0003')
  await shared.getByTestId('approval-confirm-NOV-0003').click()
  await shared.getByLabel('How was it confirmed?').selectOption('other')
  await shared.getByTestId('approval-confirm-record').click()
  await expect(shared.getByTestId('approval-confirm-problem')).toHaveText(
    'Say how the account was confirmed: a note is required when the method is "Other".',
  )
  await shared
    .getByTestId('approval-confirm-note')
    .locator('textarea')
    .fill('Video call with Payee 3 and Payee 9: a joint account')
  await shared.getByTestId('approval-confirm-record').click()
  await expect(shared.getByTestId('approval-payee-confirmation')).toContainText(
    'Other ("Video call with Payee 3 and Payee 9: a joint account")',
  )
  await expect(checks.getByTestId('approval-payees-held')).toHaveText(
    'Every changed or shared account was confirmed (2 rows).',
  )
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' })
    expect(await seriousViolations(page, '[data-testid="screen-approvals"]')).toEqual([])
  }

  await card.getByLabel('Type the total to approve').fill(runContentTotal(content.rows))
  await card.getByTestId('approval-approve').click()
  await expect(page.getByTestId(`team-run-${runId}`).getByTestId('team-run-state')).toContainText('Approved')
  // The trail says who confirmed what, for every desk.
  const trail = await db.asOwner((c) =>
    c.query<{ actor: string; subject: string }>(
      `SELECT actor, subject FROM payout_desk.audit_log WHERE run_id = $1 AND kind = 'payee_confirmed' ORDER BY seq`,
      [runId],
    ),
  )
  expect(trail.rows).toEqual([
    { actor: bob.login, subject: 'NOV-0002' },
    { actor: bob.login, subject: 'NOV-0003' },
  ])
})
