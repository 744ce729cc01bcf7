/** The team:migrate command, spawned for real against the run's PostgreSQL as a fresh team's owner. */
import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { createServer } from 'node:net'
import { join } from 'node:path'
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { asSuperuser, sharedPostgres, uniqueName } from '../../support/postgres'
import { TEAM_SCHEMA_VERSION } from '../../../electron/main/services/team/team-schema'

/** A loopback port nothing listens on. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer()
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      server.close(() => resolve(port))
    })
  })
}

function teamMigrate(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      'npm',
      ['run', '--silent', 'team:migrate', '--', ...args],
      { cwd: join(__dirname, '../../..'), env: { ...process.env, ...env } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    )
  })
}

describe('npm run team:migrate', () => {
  it('migrates a new database as its owner, names the team, sets a threshold and adds a member who can log in', async () => {
    const server = await sharedPostgres()
    const database = uniqueName('cli')
    const owner = `${database}_owner`
    const ownerPassword = randomBytes(12).toString('hex')
    await asSuperuser(server, async (client) => {
      await client.query(`CREATE ROLE ${owner} LOGIN CREATEROLE PASSWORD '${ownerPassword}'`)
      await client.query(`CREATE DATABASE ${database} OWNER ${owner} ENCODING 'UTF8' TEMPLATE template0`)
    })
    const url = `postgres://${owner}@127.0.0.1:${server.port}/${database}`
    const memberPassword = randomBytes(12).toString('hex')
    const first = await teamMigrate(
      [
        url,
        '--team',
        'Nairobi desk',
        '--threshold',
        'KES=250000.00',
        '--member',
        `${database}_ann`,
        '--name',
        'Ann',
        '--roles',
        'preparer,approver',
      ],
      { PGPASSWORD: ownerPassword, TEAM_MEMBER_PASSWORD: memberPassword },
    )
    expect(first.stderr).toBe('')
    expect(first.code).toBe(0)
    expect(first.stdout).toContain('applied 008_baseline')
    expect(first.stdout).toMatch(/definitions: \d+ applied \(functions, views, triggers, grants\)/)
    expect(first.stdout).toContain('The team is named "Nairobi desk".')
    expect(first.stdout).toContain('KES: runs of 250000.00 or more need two approvers.')
    expect(first.stdout).not.toContain(memberPassword)

    const again = await teamMigrate([url], { PGPASSWORD: ownerPassword })
    expect(again).toMatchObject({
      code: 0,
      stdout: expect.stringContaining(`The schema is up to date (version ${TEAM_SCHEMA_VERSION})`),
    })

    const ann = new pg.Client({
      host: '127.0.0.1',
      port: server.port,
      database,
      user: `${database}_ann`,
      password: memberPassword,
    })
    await ann.connect()
    const who = (await ann.query('SELECT payout_desk.whoami() AS w')).rows[0].w
    await ann.end()
    expect(who).toMatchObject({
      team: { name: 'Nairobi desk' },
      member: { displayName: 'Ann', roles: ['approver', 'preparer'] },
    })
  })

  it('reads the TLS material for a host that is not loopback before connecting, and explains wrong arguments', async () => {
    const usage = await teamMigrate(['--threshold', 'NGN=5'], {})
    expect(usage.code).toBe(2)
    expect(usage.stderr).toMatch(/--threshold is CUR=AMOUNT/)
    // Refused before any connection is tried: no traffic leaves this computer.
    const remote = await teamMigrate(['postgres://owner@192.0.2.1:1/db', '--ca', '/nonexistent/ca.pem'], {
      PGPASSWORD: 'x',
    })
    expect(remote.code).toBe(1)
    expect(remote.stderr).toMatch(/The team's CA file \/nonexistent\/ca\.pem cannot be read/)
  })

  it('a database that cannot be reached: one line naming it, the cause and what to check, no stack', async () => {
    const closed = await closedPort()
    const outcome = await teamMigrate([`postgres://owner@127.0.0.1:${closed}/payroll`], { PGPASSWORD: 'x' })
    expect(outcome.code).toBe(1)
    expect(outcome.stderr.trim().split('\n')).toEqual([
      `team:migrate could not connect to payroll on 127.0.0.1:${closed} as owner (connect ECONNREFUSED 127.0.0.1:${closed}): check that PostgreSQL runs there and the URL and PGPASSWORD.`,
    ])
  })
})
