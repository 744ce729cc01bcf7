/**
 * How a desk connects to its team's database: node-postgres options from the profile's team
 * connection and the password from the keychain. TLS is required except on loopback: with TLS the
 * certificate chain and the host name are always checked (verify-full), against the CA file when
 * the profile names one, else the system's CAs. A loopback host with a CA file uses TLS too.
 */
import { isIP } from 'node:net'
import type { ClientConfig } from 'pg'
import type { TeamConnectionDraft } from '../../../../shared/domain/team'
import { tlsModeFor } from '../../../../shared/domain/team'
import { readCaFile } from './team-ca-file'

export interface TeamClientOptions {
  /** How long a connection attempt may take. */
  connectTimeoutMs?: number
  /** A query unanswered for this long fails (and the connection counts as lost). */
  queryTimeoutMs?: number
  applicationName?: string
}

export async function teamClientConfig(
  target: TeamConnectionDraft,
  password: string,
  options: TeamClientOptions = {},
  readCa: (path: string) => Promise<string> = (path) => readCaFile(path),
): Promise<ClientConfig> {
  const tls = tlsModeFor(target)
  let ssl: ClientConfig['ssl'] = false
  if (tls === 'verify-full') {
    let ca: string | undefined
    // Only a regular file of bounded size, read with a timeout (decision 106): never waits on a pipe.
    if (target.caFile) ca = await readCa(target.caFile)
    ssl = {
      rejectUnauthorized: true,
      ...(ca ? { ca } : {}),
      // Node checks the certificate against this name (tls.checkServerIdentity); an IP is checked as an IP.
      ...(isIP(target.host) ? {} : { servername: target.host }),
    }
  }
  const queryTimeout = options.queryTimeoutMs ?? 30_000
  return {
    host: target.host,
    port: target.port,
    database: target.database,
    user: target.user,
    password,
    ssl,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
    query_timeout: queryTimeout,
    statement_timeout: queryTimeout,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    application_name: options.applicationName ?? 'payout-desk',
  }
}
