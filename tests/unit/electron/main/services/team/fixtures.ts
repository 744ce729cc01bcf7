/** Runs and members for the team tests, and a member's direct SQL connection (what psql gives them). */
import { randomBytes, randomUUID } from 'node:crypto'
import type pg from 'pg'
import type { TeamRunContent } from '../../../../../../shared/domain/team'
import { runContentHash } from '../../../../../../shared/team/run-content'
import type { TeamDatabase, TeamMemberLogin } from '../../../../../support/team-database'

/** A run of `rows` payouts with references unique in this test run. */
export function sampleContent(
  rows = 4,
  amount = '1000.00',
  prefix = `R${randomBytes(3).toString('hex')}`,
): TeamRunContent {
  return {
    currency: 'NGN',
    merchantBearsCost: false,
    description: 'Test payouts',
    rows: Array.from({ length: rows }, (_, index) => ({
      reference: `${prefix}-${String(index + 1).padStart(4, '0')}`,
      amount,
      bank_code: ['044', '033', '058'][index % 3]!,
      account_number: `01234${String(index).padStart(5, '0')}`,
      customer_name: `Payee ${index + 1}`,
      customer_email: `payee${index + 1}@example.com`,
      narration: 'Test',
    })),
  }
}

export interface SqlDesk {
  member: TeamMemberLogin
  client: pg.Client
  deskId: string
  /** Calls payout_desk.<name>(...) and answers its value. */
  call<T = unknown>(name: string, ...args: unknown[]): Promise<T>
  close(): Promise<void>
}

/**
 * A member connected with a plain client, their desk registered: the database is all that stands in
 * the way. The desk says its mode as the app's does (test, unless told; null: as psql's two-argument
 * call registers it, with none).
 */
export async function sqlDesk(
  db: TeamDatabase,
  member: TeamMemberLogin,
  mode: 'sandbox' | 'test' | 'live' | null = 'test',
): Promise<SqlDesk> {
  const client = db.client(member.login, member.password)
  await client.connect()
  const deskId = randomUUID()
  if (mode)
    await client.query('SELECT payout_desk.register_desk($1, $2, $3)', [deskId, `desk of ${member.login}`, mode])
  else await client.query('SELECT payout_desk.register_desk($1, $2)', [deskId, `desk of ${member.login}`])
  return {
    member,
    client,
    deskId,
    async call<T>(name: string, ...args: unknown[]): Promise<T> {
      const placeholders = args.map((_, index) => `$${index + 1}`).join(', ')
      const result = await client.query(`SELECT payout_desk.${name}(${placeholders}) AS answer`, args)
      return (result.rows[0] as { answer: T }).answer
    },
    close: () => client.end(),
  }
}

export interface PreparedRun {
  runId: string
  content: TeamRunContent
  hash: string
  version: number
}

/** Creates and submits a run as the preparer's SQL desk. */
export async function submittedRun(preparer: SqlDesk, content = sampleContent()): Promise<PreparedRun> {
  const runId = `run-${randomBytes(4).toString('hex')}`
  const hash = await runContentHash(content)
  await preparer.call('create_run', runId, 'March payouts', preparer.deskId, content, hash, null)
  await preparer.call('submit_run', runId, 1, hash, preparer.deskId)
  return { runId, content, hash, version: 1 }
}

export function totalOf(content: TeamRunContent): string {
  let cents = 0n
  for (const row of content.rows) cents += BigInt(row.amount.replace('.', ''))
  const text = cents.toString().padStart(3, '0')
  return `${text.slice(0, -2)}.${text.slice(-2)}`
}

/** The SQLSTATE and message a call failed with. */
export async function refusal(work: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await work
  } catch (error) {
    return { code: String((error as { code?: unknown }).code), message: (error as Error).message }
  }
  throw new Error('expected the database to refuse, and it did not')
}
