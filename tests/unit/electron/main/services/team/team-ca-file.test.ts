/**
 * The team's CA file (decision 106): main chooses it in its own dialog, and reads only a regular
 * file of bounded size within a timeout. A FIFO never holds team:connect; a file too big, not PEM
 * or gone is refused saying what is wrong, by the file's name only. The renderer names no path.
 */
import { execFileSync } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { teamChannels } from '../../../../../../shared/ipc/channels/team'
import { createBridgeDesktop } from '../../../../../../electron/main/adapters/bridge-desktop'
import { chooseCaFile, CA_FILE_MAX_BYTES } from '../../../../../../electron/main/services/team/team-ca-file'
import { teamClientConfig } from '../../../../../../electron/main/services/team/team-connection-options'

const PEM = '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUQ\n-----END CERTIFICATE-----\n'
const draft = { host: 'db.example.com', port: 5432, database: 'payouts', user: 'ada' }
let dir: string

/** The config's answer, or its error, within `ms`: a read that waits on a pipe would never answer. */
async function configWithin(caFile: string, ms = 4_000): Promise<{ ok: boolean; message: string; ca?: unknown }> {
  let timer: NodeJS.Timeout | undefined
  const hung = new Promise<{ ok: false; message: string }>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, message: `no answer within ${ms} ms: team:connect hangs` }), ms)
  })
  const attempt = teamClientConfig({ ...draft, caFile }, 'pw').then(
    (config) => ({ ok: true, message: '', ca: (config.ssl as { ca?: unknown }).ca }),
    (error: Error) => ({ ok: false, message: error.message }),
  )
  try {
    return await Promise.race([attempt, hung])
  } finally {
    clearTimeout(timer)
  }
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'team-ca-'))
})

afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe("the team's CA file", () => {
  it('reads a PEM file that is a regular file', async () => {
    const file = join(dir, 'team-ca.pem')
    await writeFile(file, PEM)
    expect(await configWithin(file)).toEqual({ ok: true, message: '', ca: PEM })
  })

  it('refuses a FIFO at once instead of waiting on it for good', async () => {
    const fifo = join(dir, 'ca-pipe.pem')
    execFileSync('mkfifo', [fifo])
    const answer = await configWithin(fifo)
    expect(answer.ok).toBe(false)
    expect(answer.message).toBe(
      "The team's CA file ca-pipe.pem is not a regular file (a pipe, device or folder): choose the .pem file.",
    )
  })

  it('refuses a file too big to be a CA certificate, without reading it whole', async () => {
    const big = join(dir, 'huge.pem')
    await writeFile(big, PEM + 'A'.repeat(CA_FILE_MAX_BYTES))
    expect((await configWithin(big)).message).toBe(
      "The team's CA file huge.pem is larger than 256 KiB, more than any CA certificate.",
    )
  })

  it('refuses a file that holds no PEM certificate, and one that is gone, naming the file and not its folder', async () => {
    const text = join(dir, 'notes.pem')
    await writeFile(text, 'hello, this is not a certificate')
    const notPem = await configWithin(text)
    expect(notPem.message).toBe(
      "The team's CA file notes.pem holds no PEM certificate (-----BEGIN CERTIFICATE-----): choose the CA file in PEM form.",
    )
    const gone = await configWithin(join(dir, 'gone.pem'))
    expect(gone.message).toBe("The team's CA file gone.pem is no longer there: choose it again.")
    for (const message of [notPem.message, gone.message]) expect(message).not.toContain(dir)
  })

  it("is chosen in main's own dialog, checked before it is kept; the renderer can no longer name a path", async () => {
    const desktop = createBridgeDesktop(undefined, undefined, { testMode: true })
    const good = join(dir, 'chosen.pem')
    await writeFile(good, PEM)
    desktop.queueOpenPath(good)
    expect(await chooseCaFile(desktop.dialogs)).toBe(good)
    desktop.queueOpenPath(null)
    expect(await chooseCaFile(desktop.dialogs)).toBeNull()
    const fifo = join(dir, 'chosen-pipe')
    execFileSync('mkfifo', [fifo])
    desktop.queueOpenPath(fifo)
    await expect(chooseCaFile(desktop.dialogs)).rejects.toThrow(/chosen-pipe is not a regular file/)

    const fromRenderer = teamChannels['team:configure'].input.safeParse({
      profileId: 'p1',
      ...draft,
      caFile: '/etc/passwd',
    })
    expect(fromRenderer.success).toBe(false)
  })
})
