/**
 * team:migrate: creates and upgrades a team's database, run by whoever administers it, as the
 * team's owner role (never a desk's login). See docs/team.md.
 *
 *   npm run --silent team:migrate -- <postgres://OWNER@HOST:PORT/DATABASE> [--ca FILE]
 *       [--team "Team name"] [--threshold NGN=5000000.00 ...]
 *       [--member LOGIN --name "Display name" --roles preparer,approver,admin]
 *
 * The owner's password: PGPASSWORD (or in the URL). A new member's password: TEAM_MEMBER_PASSWORD;
 * it becomes a SCRAM-SHA-256 verifier here and never reaches the server as text.
 * TLS (verify-full) is required for every host that is not loopback, as on the desks.
 * Exit 0: done; 1: refused (the reason on stderr); 2: wrong arguments.
 */
import pg from 'pg'
import { TEAM_ROLES } from '../shared/domain/team'
import type { TeamRole } from '../shared/domain/team'
import { teamClientConfig } from '../electron/main/services/team/team-connection-options'
import { readCaFile } from '../electron/main/services/team/team-ca-file'
import { migrate, readMigrations } from '../electron/main/services/team/team-migrator'
import { scramVerifier } from '../electron/main/services/team/scram-verifier'

const USAGE = `Usage: npm run --silent team:migrate -- <postgres://OWNER@HOST:PORT/DATABASE> [--ca FILE]
    [--team "Team name"] [--threshold CUR=AMOUNT ...]
    [--member LOGIN --name "Display name" --roles preparer,approver,admin]
The owner's password comes from PGPASSWORD (or the URL); a new member's from TEAM_MEMBER_PASSWORD.`

interface Arguments {
  url: URL
  ca: string | null
  team?: string
  thresholds: Array<{ currency: string; amount: string | null }>
  member?: { login: string; name: string; roles: TeamRole[] }
}

function parseArguments(argv: readonly string[]): Arguments | string {
  let url: URL | undefined
  let ca: string | null = null
  let team: string | undefined
  const thresholds: Arguments['thresholds'] = []
  let login: string | undefined
  let name: string | undefined
  let roles: TeamRole[] | undefined
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index] as string
    const value = (): string | undefined => argv[++index]
    if (argument === '--ca') ca = value() ?? ''
    else if (argument === '--team') team = value()
    else if (argument === '--threshold') {
      const match = /^([A-Z]{3})=(none|\d+\.\d{2})$/.exec(value() ?? '')
      if (!match) return '--threshold is CUR=AMOUNT with two decimals (NGN=5000000.00), or CUR=none.'
      thresholds.push({ currency: match[1]!, amount: match[2] === 'none' ? null : match[2]! })
    } else if (argument === '--member') login = value()
    else if (argument === '--name') name = value()
    else if (argument === '--roles') {
      const listed = (value() ?? '').split(',').filter(Boolean)
      if (
        listed.length === 0 ||
        !listed.every((role): role is TeamRole => (TEAM_ROLES as readonly string[]).includes(role))
      )
        return `--roles is a comma-separated list of ${TEAM_ROLES.join(', ')}.`
      roles = listed
    } else if (argument.startsWith('--')) return `Unknown option ${argument}.`
    else if (url) return `One connection only (got ${argument} too).`
    else {
      try {
        url = new URL(argument)
      } catch {
        return `${argument} is not a postgres:// URL.`
      }
      if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') return `${argument} is not a postgres:// URL.`
    }
  }
  if (!url) return 'Give the connection: postgres://OWNER@HOST:PORT/DATABASE.'
  if (ca === '') return '--ca needs a file.'
  if (login !== undefined && (!name || !roles)) return '--member needs --name and --roles.'
  return {
    url,
    ca,
    ...(team !== undefined ? { team } : {}),
    thresholds,
    ...(login ? { member: { login, name: name!, roles: roles! } } : {}),
  }
}

async function main(): Promise<number> {
  const parsed = parseArguments(process.argv.slice(2))
  if (typeof parsed === 'string') {
    console.error(`${parsed}\n${USAGE}`)
    return 2
  }
  const { url } = parsed
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''))
  const user = decodeURIComponent(url.username)
  if (!database || !user) {
    console.error(`The URL must name the owner and the database.\n${USAGE}`)
    return 2
  }
  const password = url.password ? decodeURIComponent(url.password) : (process.env['PGPASSWORD'] ?? '')
  const host = url.hostname.replace(/^\[|\]$/g, '')
  const config = await teamClientConfig(
    { host, port: Number(url.port || 5432), database, user, caFile: parsed.ca },
    password,
    { applicationName: 'payout-desk team:migrate' },
    (path) => readCaFile(path, { typed: true }),
  )
  const client = new pg.Client(config)
  try {
    await client.connect()
  } catch (error) {
    // pg's own message ("connect ECONNREFUSED ...", "password authentication failed ...") says
    // why, not which database; the line says both, and what to check.
    const why = (error instanceof Error ? error.message : String(error)).split('\n')[0]
    console.error(
      `team:migrate could not connect to ${database} on ${url.host} as ${user} (${why}): check that PostgreSQL runs there and the URL and PGPASSWORD.`,
    )
    return 1
  }
  try {
    const report = await migrate(client, await readMigrations())
    if (report.squashed) console.log('recorded migrations 001 to 008 as the baseline they were squashed into')
    for (const applied of report.applied)
      console.log(`applied ${String(applied.version).padStart(3, '0')}_${applied.name}`)
    const defined = report.definitions.applied
    if (defined.length > 0) {
      console.log(`definitions: ${defined.length} applied (functions, views, triggers, grants)`)
      for (const definition of defined.filter((d) => d.change !== 'new'))
        console.log(`  ${definition.change} ${definition.path}`)
    }
    console.log(
      report.applied.length === 0 && defined.length === 0
        ? `The schema is up to date (version ${report.schemaVersion}).`
        : `The schema is at version ${report.schemaVersion}.`,
    )
    if (parsed.team !== undefined) {
      await client.query('SELECT payout_desk.set_team_name($1)', [parsed.team])
      console.log(`The team is named "${parsed.team.trim()}".`)
    }
    for (const threshold of parsed.thresholds) {
      await client.query('SELECT payout_desk.set_threshold($1, $2)', [threshold.currency, threshold.amount])
      console.log(
        threshold.amount === null
          ? `${threshold.currency}: no threshold (every run needs two approvers).`
          : `${threshold.currency}: runs of ${threshold.amount} or more need two approvers.`,
      )
    }
    if (parsed.member) {
      const memberPassword = process.env['TEAM_MEMBER_PASSWORD']
      const exists = await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [parsed.member.login])
      if (!memberPassword && exists.rowCount === 0) {
        console.error(`${parsed.member.login} is a new login: set TEAM_MEMBER_PASSWORD to its first password.`)
        return 1
      }
      await client.query('SELECT payout_desk.add_member($1, $2, $3, $4)', [
        parsed.member.login,
        parsed.member.name,
        parsed.member.roles,
        memberPassword ? scramVerifier(memberPassword) : null,
      ])
      console.log(`${parsed.member.login} (${parsed.member.name}) is a member: ${parsed.member.roles.join(', ')}.`)
    }
    return 0
  } finally {
    await client.end()
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error))
    process.exit(1)
  },
)
