/** TLS is required for every team database not on this computer, with chain and host name checked. */
import { describe, expect, it } from 'vitest'
import { isLoopbackHost, tlsModeFor } from '../../../../../../shared/domain/team'
import { teamClientConfig } from '../../../../../../electron/main/services/team/team-connection-options'

const draft = { host: 'db.example.com', port: 5432, database: 'payouts', user: 'ada', caFile: null }
const PEM = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n'

describe('team connection options', () => {
  it('knows loopback hosts, and nothing else, as loopback', () => {
    for (const host of ['localhost', '127.0.0.1', '127.1.2.3', '::1', '[::1]', 'LOCALHOST', 'desk.localhost'])
      expect(isLoopbackHost(host), host).toBe(true)
    for (const host of [
      'db.example.com',
      '10.0.0.5',
      '192.168.1.10',
      '127.0.0.1.example.com',
      'localhost.example.com',
      '128.0.0.1',
      '0.0.0.0',
    ])
      expect(isLoopbackHost(host), host).toBe(false)
  })

  it('requires TLS with full verification for a host that is not loopback, even without a CA file', async () => {
    expect(tlsModeFor(draft)).toBe('verify-full')
    const config = await teamClientConfig(draft, 'pw')
    expect(config.ssl).toEqual({ rejectUnauthorized: true, servername: 'db.example.com' })
    const byAddress = await teamClientConfig({ ...draft, host: '10.0.0.5' }, 'pw')
    // An address is checked as an address (no SNI name is sent for it).
    expect(byAddress.ssl).toEqual({ rejectUnauthorized: true })
  })

  it('verifies against the CA file when one is named', async () => {
    const config = await teamClientConfig({ ...draft, caFile: '/etc/team/ca.pem' }, 'pw', {}, async () => PEM)
    expect(config.ssl).toEqual({ rejectUnauthorized: true, ca: PEM, servername: 'db.example.com' })
  })

  it('allows plain TCP on loopback only, and uses TLS there too when a CA file is named', async () => {
    expect((await teamClientConfig({ ...draft, host: '127.0.0.1' }, 'pw')).ssl).toBe(false)
    expect((await teamClientConfig({ ...draft, host: 'localhost' }, 'pw')).ssl).toBe(false)
    const withCa = await teamClientConfig({ ...draft, host: 'localhost', caFile: '/ca.pem' }, 'pw', {}, async () => PEM)
    expect(withCa.ssl).toEqual({ rejectUnauthorized: true, ca: PEM, servername: 'localhost' })
  })
})
