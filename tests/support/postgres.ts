/**
 * A real PostgreSQL server for the team tests: the machine's PostgreSQL (Debian's 15 here), on a private data
 * directory and a free loopback port, with TLS on (a throwaway CA and a server certificate for the
 * host name `localhost`, made with openssl), run as a non-root user (initdb and postgres refuse
 * root: as root the server runs as the `postgres` system user). Never a mock.
 *
 * One server per test run, started on first use: `sharedPostgres()` starts it in whichever worker
 * asks first (a lock directory keeps the others waiting), the run's global setup
 * (postgres-global-setup.ts) stops it at the end. Each test file makes its own database with its own
 * owner role (`createTeamDatabase`), migrated by the app's migrator.
 */
import { execFile, execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir, userInfo } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import pg from 'pg'
import { executable, findPostgres } from '../../scripts/test-tools.cjs'

const run = promisify(execFile)

export const POSTGRES_DIR_ENV = 'PAYOUT_DESK_POSTGRES_DIR'

export interface PostgresServer {
  host: string
  port: number
  superuser: string
  superPassword: string
  /** The throwaway CA that signed the server's certificate (for `localhost` only). */
  caFile: string
  dataDir: string
  binDir: string
}

/**
 * The folder with initdb and pg_ctl (15 or later), as the preflight finds it on every OS:
 * PAYOUT_DESK_PG_BIN, PATH, or the OS's usual install folder (scripts/test-tools.cjs). Null when
 * PostgreSQL is missing.
 */
export function findPostgresBin(): string | null {
  return findPostgres()?.bin ?? null
}

const program = (binDir: string, name: string) => join(binDir, executable(name))

/** The user the server runs as: this one, or `postgres` when this is root. */
function serverUser(): { uid: number; gid: number } | null {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return null
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim())
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim())
    return { uid, gid }
  } catch {
    throw new Error(
      'The tests run as root and PostgreSQL refuses root: there is no "postgres" user (apt-get install -y postgresql makes one).',
    )
  }
}

async function asServerUser(file: string, args: string[], cwd: string): Promise<string> {
  const user = serverUser()
  const { stdout } = await run(file, args, {
    cwd,
    ...(user ? { uid: user.uid, gid: user.gid } : {}),
    // A clean environment on Linux; Windows programs need its system variables (SystemRoot ...).
    env:
      process.platform === 'linux'
        ? { PATH: process.env['PATH'] ?? '/usr/bin:/bin', LC_ALL: 'C.UTF-8', LANG: 'C.UTF-8' }
        : process.env,
    timeout: 120_000,
  })
  return stdout
}

function giveToServerUser(path: string): void {
  const user = serverUser()
  if (user) chownSync(path, user.uid, user.gid)
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      server.close(() => resolve(port))
    })
  })
}

/** A CA and a certificate for `localhost` it signed (EC keys: quick to make). */
export async function makeCertificates(
  dir: string,
  commonName = 'localhost',
): Promise<{ ca: string; cert: string; key: string }> {
  mkdirSync(dir, { recursive: true })
  const ca = join(dir, 'ca.crt')
  const caKey = join(dir, 'ca.key')
  const key = join(dir, 'server.key')
  const csr = join(dir, 'server.csr')
  const cert = join(dir, 'server.crt')
  const extensions = join(dir, 'server.ext')
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes']
  await run('openssl', [
    'req',
    '-x509',
    ...ec,
    '-keyout',
    caKey,
    '-out',
    ca,
    '-days',
    '2',
    '-subj',
    `/CN=Payout Desk test CA ${randomBytes(4).toString('hex')}`,
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ])
  await run('openssl', ['req', ...ec, '-keyout', key, '-out', csr, '-subj', `/CN=${commonName}`])
  writeFileSync(
    extensions,
    `subjectAltName=DNS:${commonName}\nbasicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n`,
  )
  await run('openssl', [
    'x509',
    '-req',
    '-in',
    csr,
    '-CA',
    ca,
    '-CAkey',
    caKey,
    '-CAcreateserial',
    '-out',
    cert,
    '-days',
    '2',
    '-extfile',
    extensions,
  ])
  return { ca, cert, key }
}

/** initdb, certificates, configuration, pg_ctl start; answers once the server takes connections. */
export async function startPostgres(dir: string): Promise<PostgresServer> {
  const binDir = findPostgresBin()
  if (!binDir)
    throw new Error(
      'PostgreSQL 15 or later is not installed: put its initdb and pg_ctl on PATH or in PAYOUT_DESK_PG_BIN (`node scripts/preflight.mjs` says how on this OS).',
    )
  mkdirSync(dir, { recursive: true })
  chmodSync(dir, 0o755)
  giveToServerUser(dir)
  const dataDir = join(dir, 'data')
  const superPassword = randomBytes(18).toString('hex')
  const passwordFile = join(dir, 'superuser-password')
  writeFileSync(passwordFile, `${superPassword}\n`, { mode: 0o600 })
  giveToServerUser(passwordFile)
  await asServerUser(
    program(binDir, 'initdb'),
    [
      '-D',
      dataDir,
      '-U',
      'postgres',
      '--pwfile',
      passwordFile,
      '--auth=scram-sha-256',
      '-E',
      'UTF8',
      // C.UTF-8 where the OS has it (Linux); macOS has no C.UTF-8, Windows names its locales otherwise.
      `--locale=${process.platform === 'linux' ? 'C.UTF-8' : process.platform === 'darwin' ? 'en_US.UTF-8' : 'C'}`,
      '--no-sync',
      '--no-instructions',
    ],
    dir,
  )
  const certificates = await makeCertificates(join(dir, 'tls'))
  for (const name of ['server.crt', 'server.key'] as const) {
    const target = join(dataDir, name)
    writeFileSync(target, readFileSync(name === 'server.crt' ? certificates.cert : certificates.key), { mode: 0o600 })
    giveToServerUser(target)
  }
  writeFileSync(
    join(dataDir, 'pg_hba.conf'),
    [
      'local all all scram-sha-256',
      'host all all 127.0.0.1/32 scram-sha-256',
      'host all all ::1/128 scram-sha-256',
      '',
    ].join('\n'),
  )
  const caFile = join(dir, 'ca.crt')
  writeFileSync(caFile, readFileSync(certificates.ca))
  let lastError: unknown
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort()
    writeFileSync(
      join(dataDir, 'postgresql.auto.conf'),
      [
        `port = ${port}`,
        `listen_addresses = 'localhost'`,
        // The tests connect over TCP. A socket beside the data on Linux; none elsewhere (a macOS
        // socket path must stay under 104 bytes, a Windows path's backslashes are escapes here).
        `unix_socket_directories = '${process.platform === 'linux' ? dir : ''}'`,
        'ssl = on',
        // A test server: durability is PostgreSQL's own business, not what these tests check.
        'fsync = off',
        'synchronous_commit = off',
        'full_page_writes = off',
        'max_connections = 200',
        "log_min_messages = 'warning'",
        '',
      ].join('\n'),
    )
    giveToServerUser(join(dataDir, 'postgresql.auto.conf'))
    try {
      await asServerUser(
        program(binDir, 'pg_ctl'),
        ['-D', dataDir, '-l', join(dir, 'server.log'), '-w', '-t', '60', 'start'],
        dir,
      )
      return { host: '127.0.0.1', port, superuser: 'postgres', superPassword, caFile, dataDir, binDir }
    } catch (error) {
      lastError = error
    }
  }
  const log = existsSync(join(dir, 'server.log')) ? readFileSync(join(dir, 'server.log'), 'utf8').slice(-2000) : ''
  throw new Error(`PostgreSQL did not start: ${String(lastError)}\n${log}`)
}

export async function stopPostgres(dir: string): Promise<void> {
  const binDir = findPostgresBin()
  const dataDir = join(dir, 'data')
  if (!binDir || !existsSync(join(dataDir, 'postmaster.pid'))) return
  await asServerUser(program(binDir, 'pg_ctl'), ['-D', dataDir, '-m', 'immediate', '-w', 'stop'], dir).catch(
    () => undefined,
  )
}

let shared: Promise<PostgresServer> | undefined

/** The run's one server, started by the first worker that asks. */
export function sharedPostgres(): Promise<PostgresServer> {
  shared ??= findOrStartShared()
  return shared
}

async function findOrStartShared(): Promise<PostgresServer> {
  let dir = process.env[POSTGRES_DIR_ENV]
  if (!dir) {
    // Outside the vitest run's global setup: a server of this process's own, stopped at exit.
    dir = join(
      process.env['PAYOUT_DESK_REAL_TMPDIR'] ?? tmpdir(),
      `payout-desk-postgres-${process.pid}-${randomBytes(3).toString('hex')}`,
    )
    const own = dir
    process.on('exit', () => {
      const binDir = findPostgresBin()
      const dataDir = join(own, 'server', 'data')
      if (binDir && existsSync(join(dataDir, 'postmaster.pid')))
        execFileSync(program(binDir, 'pg_ctl'), ['-D', dataDir, '-m', 'immediate', 'stop'], {
          stdio: 'ignore',
          ...(serverUser() ?? {}),
        })
    })
  }
  const stateFile = join(dir, 'server.json')
  const failedFile = join(dir, 'failed.txt')
  const deadline = Date.now() + 180_000
  for (;;) {
    if (existsSync(stateFile)) return JSON.parse(readFileSync(stateFile, 'utf8')) as PostgresServer
    if (existsSync(failedFile)) throw new Error(readFileSync(failedFile, 'utf8'))
    try {
      mkdirSync(join(dir, 'starting'), { recursive: false })
      break
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') mkdirSync(dir, { recursive: true })
      else if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
    if (Date.now() > deadline) throw new Error('Waited three minutes for another worker to start PostgreSQL.')
    await new Promise((done) => setTimeout(done, 100))
  }
  try {
    const server = await startPostgres(join(dir, 'server'))
    writeFileSync(`${stateFile}.tmp`, JSON.stringify(server))
    renameSync(`${stateFile}.tmp`, stateFile)
    return server
  } catch (error) {
    writeFileSync(failedFile, error instanceof Error ? error.message : String(error))
    throw error
  }
}

export function superClient(server: PostgresServer, database = 'postgres'): pg.Client {
  return new pg.Client({
    host: server.host,
    port: server.port,
    user: server.superuser,
    password: server.superPassword,
    database,
  })
}

export async function asSuperuser<T>(
  server: PostgresServer,
  work: (client: pg.Client) => Promise<T>,
  database?: string,
): Promise<T> {
  const client = superClient(server, database)
  await client.connect()
  try {
    return await work(client)
  } finally {
    await client.end()
  }
}

/** A login role's name unique in this run (roles are server-wide; each test file has its own). */
export function uniqueName(label: string): string {
  const clean = label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .slice(0, 20)
  return `t${randomBytes(3).toString('hex')}_${clean}`
}

export const currentUserName = (): string => userInfo().username
