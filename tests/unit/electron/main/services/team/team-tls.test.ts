/**
 * TLS to the team database with full verification (verify-full): the run's PostgreSQL has ssl=on
 * with a certificate for `localhost` from a throwaway CA (tests/support/postgres.ts). The desk's
 * connection options (the ones the team service uses) verify the chain and the host name: the
 * right CA and name connect encrypted; another name for the same server, or another CA, is refused.
 */
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { beforeAll, describe, expect, it } from 'vitest'
import { teamClientConfig } from '../../../../../../electron/main/services/team/team-connection-options'
import { makeCertificates } from '../../../../../support/postgres'
import { createTeamDatabase } from '../../../../../support/team-database'
import type { TeamDatabase, TeamMemberLogin } from '../../../../../support/team-database'
import { deskWithTeam } from './harness'

let db: TeamDatabase
let member: TeamMemberLogin

beforeAll(async () => {
  db = await createTeamDatabase('tls')
  member = await db.addMember('tls', ['approver'])
})

async function connectWith(host: string, caFile: string | null): Promise<{ ssl: boolean; version: string | null }> {
  const config = await teamClientConfig(
    { host, port: db.server.port, database: db.database, user: member.login, caFile },
    member.password,
  )
  const client = new pg.Client(config)
  await client.connect()
  try {
    const row = (
      await client.query<{ ssl: boolean; version: string | null }>(
        'SELECT ssl, version FROM pg_stat_ssl WHERE pid = pg_backend_pid()',
      )
    ).rows[0]!
    return row
  } finally {
    await client.end()
  }
}

describe('TLS to the team database', () => {
  it('connects encrypted by the name on the certificate, verified against the CA file', async () => {
    const session = await connectWith('localhost', db.server.caFile)
    expect(session.ssl).toBe(true)
    expect(session.version).toMatch(/^TLSv1\.[23]$/)
  })

  it('refuses the same server reached by a name its certificate does not carry', async () => {
    const error = await connectWith('127.0.0.1', db.server.caFile).catch((e: unknown) => e)
    expect(String(error)).toMatch(/IP: 127\.0\.0\.1 is not in the cert's list|does not match certificate's altnames/)
  })

  it('refuses a server whose certificate another CA signed', async () => {
    const other = await makeCertificates(join(await mkdtemp(join(tmpdir(), 'other-ca-')), 'tls'))
    const error = await connectWith('localhost', other.ca).catch((e: unknown) => e)
    expect(String(error)).toMatch(
      /unable to verify the first certificate|self[- ]signed certificate|unable to get local issuer/,
    )
  })

  it('through the team service: a profile with a CA file connects with TLS; a wrong name is refused with the reason', async () => {
    const good = await deskWithTeam(
      { host: 'localhost', port: db.server.port, database: db.database, user: member.login, caFile: db.server.caFile },
      member.password,
    )
    try {
      expect((await good.team.status()).connection?.tls).toBe('verify-full')
      expect((await good.team.connect()).state).toBe('connected')
    } finally {
      await good.close()
    }
    const wrongName = await deskWithTeam(
      { host: '127.0.0.1', port: db.server.port, database: db.database, user: member.login, caFile: db.server.caFile },
      member.password,
    )
    try {
      const refused = await wrongName.team.connect().catch((e: unknown) => e)
      expect(refused).toMatchObject({ code: 'forbidden', message: expect.stringMatching(/certificate was refused/) })
      expect((await wrongName.team.status()).state).toBe('disconnected')
    } finally {
      await wrongName.close()
    }
  })
})
