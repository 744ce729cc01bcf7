/**
 * The test preflight (scripts/preflight.mjs, decision 69): on Linux, macOS and Windows it names what
 * `npm test` needs and is missing, in one line with the commands that install it on that OS. Each OS
 * is shown with a machine of the test's own (a probe that answers what is installed), and this
 * machine's own preflight is run as a person runs it.
 */
import { execFile, execFileSync } from 'node:child_process'
import { mkdtemp, rm, symlink } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { explainMissing, missingForKeychain, missingForTests } from '../../../scripts/preflight.mjs'
import type { Probe } from '../../../scripts/preflight.mjs'
import { chromiumExecutablePath, findChromium, findPostgres } from '../../../scripts/test-tools.cjs'

const run = promisify(execFile)

/** A machine with exactly the commands named, and the other answers given. */
function machine(options: {
  commands?: string[]
  libsecret?: boolean
  chromium?: boolean
  postgres?: boolean
  keytar?: boolean
}): Probe {
  const commands = new Set(options.commands ?? [])
  return {
    command: (name) => commands.has(name),
    libsecret: () => options.libsecret ?? false,
    chromium: () => (options.chromium ? { path: '/chromium', source: 'playwright' } : null),
    postgres: () => (options.postgres ? { bin: '/pg', version: 17 } : null),
    keytarBuilt: () => options.keytar ?? false,
  }
}

const nothing = machine({})
const POPPLER = ['pdftotext', 'pdftoppm', 'pdfinfo']

function verdict(platform: NodeJS.Platform, probe: Probe, env: NodeJS.ProcessEnv = {}): string | null {
  const missing = missingForTests({ platform, env, probe })
  return missing.length ? explainMissing(missing, platform) : null
}

describe('test preflight, per OS', () => {
  it('Linux: Debian packages, the keychain the tests start, and npm ci to build keytar against libsecret', () => {
    expect(verdict('linux', nothing)).toBe(
      "Missing: Chromium (Debian's chromium-headless-shell or chromium package, or Playwright's own: npx playwright install chromium), pkg-config," +
        ' libsecret, a Secret Service (gnome-keyring), dbus-run-session, poppler-utils (pdftotext, pdftoppm, pdfinfo),' +
        ' PostgreSQL 15 or later (initdb and pg_ctl on PATH, or in PAYOUT_DESK_PG_BIN), openssl,' +
        ' the keytar native module (built by npm ci).' +
        ' Install with: sudo apt-get install -y chromium-headless-shell pkg-config libsecret-1-dev gnome-keyring dbus poppler-utils postgresql openssl && npm ci',
    )
  })

  it('macOS: Homebrew for the tools, Playwright for Chromium, the OS keychain as it is', () => {
    expect(verdict('darwin', nothing)).toBe(
      "Missing: Chromium (Playwright's own), poppler-utils (pdftotext, pdftoppm, pdfinfo)," +
        ' PostgreSQL 15 or later (initdb and pg_ctl on PATH, or in PAYOUT_DESK_PG_BIN), openssl,' +
        ' the keytar native module (built by npm ci).' +
        ' Install with: brew install poppler postgresql@17 openssl@3 && npx playwright install chromium && npm ci',
    )
  })

  it('Windows: Scoop for the tools, Playwright for Chromium, the OS keychain as it is', () => {
    expect(verdict('win32', nothing)).toBe(
      "Missing: Chromium (Playwright's own), poppler-utils (pdftotext, pdftoppm, pdfinfo)," +
        ' PostgreSQL 15 or later (initdb and pg_ctl on PATH, or in PAYOUT_DESK_PG_BIN), openssl,' +
        ' the keytar native module (built by npm ci).' +
        ' Install with: scoop install poppler postgresql openssl && npx playwright install chromium && npm ci',
    )
  })

  it('names only what is missing: one tool on each OS', () => {
    const all = { chromium: true, postgres: true, keytar: true, libsecret: true }
    const linux = machine({ ...all, commands: ['pkg-config', 'gnome-keyring-daemon', 'dbus-run-session', 'openssl'] })
    expect(verdict('linux', linux)).toBe(
      'Missing: poppler-utils (pdftotext, pdftoppm, pdfinfo). Install with: sudo apt-get install -y poppler-utils',
    )
    expect(verdict('darwin', machine({ ...all, commands: [...POPPLER, 'openssl'], postgres: false }))).toBe(
      'Missing: PostgreSQL 15 or later (initdb and pg_ctl on PATH, or in PAYOUT_DESK_PG_BIN). Install with: brew install postgresql@17',
    )
    expect(verdict('win32', machine({ ...all, commands: [...POPPLER, 'openssl'], chromium: false }))).toBe(
      "Missing: Chromium (Playwright's own). Install with: npx playwright install chromium",
    )
  })

  it('asks nothing of the Linux keychain stack on macOS and Windows, and passes a complete machine', () => {
    const complete = machine({ chromium: true, postgres: true, keytar: true, commands: [...POPPLER, 'openssl'] })
    expect(verdict('darwin', complete)).toBeNull()
    expect(verdict('win32', complete)).toBeNull()
    expect(missingForKeychain({ platform: 'darwin', probe: complete })).toEqual([])
    expect(missingForKeychain({ platform: 'linux', probe: complete }).map((item) => item.what)).toEqual([
      'libsecret',
      'a Secret Service (gnome-keyring)',
      'dbus-run-session',
    ])
  })

  it('names a PAYOUT_DESK_CHROMIUM or PAYOUT_DESK_PG_BIN that points at nothing', () => {
    const missing = missingForTests({
      platform: 'darwin',
      env: { PAYOUT_DESK_CHROMIUM: '/nowhere/chromium', PAYOUT_DESK_PG_BIN: '/nowhere/bin' },
      probe: machine({ keytar: true, commands: [...POPPLER, 'openssl'] }),
    }).map((item) => item.what)
    expect(missing).toEqual([
      'Chromium (PAYOUT_DESK_CHROMIUM=/nowhere/chromium does not exist)',
      'PostgreSQL 15 or later (PAYOUT_DESK_PG_BIN=/nowhere/bin has no initdb and pg_ctl of 15 or later)',
    ])
  })
})

describe('which Chromium the e2e tests use', () => {
  const playwright = () => '/home/me/.cache/ms-playwright/chromium-1/chrome-linux64/chrome'
  const present =
    (...paths: string[]) =>
    (path: string) =>
      paths.includes(path)

  it("Debian's on Linux when it is installed (its headless shell first), else Playwright's own", () => {
    expect(
      findChromium({
        platform: 'linux',
        env: {},
        exists: present('/usr/bin/chromium-headless-shell', '/usr/bin/chromium', playwright()),
        playwright,
      }),
    ).toEqual({ path: '/usr/bin/chromium-headless-shell', source: 'debian' })
    expect(
      findChromium({ platform: 'linux', env: {}, exists: present('/usr/bin/chromium', playwright()), playwright }),
    ).toEqual({ path: '/usr/bin/chromium', source: 'debian' })
    expect(findChromium({ platform: 'linux', env: {}, exists: present(playwright()), playwright })).toEqual({
      path: playwright(),
      source: 'playwright',
    })
    // Playwright's own is launched as Playwright chooses (its headless build): no path is given.
    expect(
      chromiumExecutablePath({ platform: 'linux', env: {}, exists: present(playwright()), playwright }),
    ).toBeUndefined()
    expect(findChromium({ platform: 'linux', env: {}, exists: present(), playwright })).toBeNull()
  })

  it("Playwright's own on macOS and Windows; PAYOUT_DESK_CHROMIUM wherever it is set", () => {
    expect(
      findChromium({ platform: 'darwin', env: {}, exists: present('/usr/bin/chromium', playwright()), playwright })
        ?.source,
    ).toBe('playwright')
    expect(
      findChromium({
        platform: 'win32',
        env: { PAYOUT_DESK_CHROMIUM: 'C:/chrome.exe' },
        exists: present('C:/chrome.exe'),
        playwright,
      }),
    ).toEqual({ path: 'C:/chrome.exe', source: 'PAYOUT_DESK_CHROMIUM' })
  })
})

describe('which PostgreSQL the team tests start', () => {
  const version =
    (versions: Record<string, number>) =>
    (initdb: string): number | null =>
      versions[initdb] ?? null
  const files = (...paths: string[]) => {
    const all = new Set(paths)
    return {
      exists: (path: string) =>
        all.has(path) || paths.some((file) => file.startsWith(`${path}/`) || file.startsWith(`${path}\\`)),
      list: (folder: string) => [
        ...new Set(
          paths
            .filter((file) => file.startsWith(`${folder}/`))
            .map((file) => file.slice(folder.length + 1).split('/')[0]!),
        ),
      ],
    }
  }

  it('PAYOUT_DESK_PG_BIN when set, and nothing else', () => {
    const machine = files('/opt/pg16/bin/initdb', '/opt/pg16/bin/pg_ctl', '/usr/bin/initdb', '/usr/bin/pg_ctl')
    const majorVersion = version({ '/opt/pg16/bin/initdb': 16, '/usr/bin/initdb': 17 })
    expect(
      findPostgres({
        platform: 'linux',
        env: { PAYOUT_DESK_PG_BIN: '/opt/pg16/bin', PATH: '/usr/bin' },
        ...machine,
        majorVersion,
      }),
    ).toEqual({ bin: '/opt/pg16/bin', version: 16 })
    expect(
      findPostgres({
        platform: 'linux',
        env: { PAYOUT_DESK_PG_BIN: '/opt/none', PATH: '/usr/bin' },
        ...machine,
        majorVersion,
      }),
    ).toBeNull()
  })

  it('the first on PATH that is 15 or later, on every OS', () => {
    const machine = files('/old/bin/initdb', '/old/bin/pg_ctl', '/new/bin/initdb', '/new/bin/pg_ctl')
    const majorVersion = version({ '/old/bin/initdb': 14, '/new/bin/initdb': 16 })
    expect(findPostgres({ platform: 'darwin', env: { PATH: '/new/bin:/old/bin' }, ...machine, majorVersion })).toEqual({
      bin: '/new/bin',
      version: 16,
    })
    // Too old on PATH, nothing else: none.
    expect(findPostgres({ platform: 'darwin', env: { PATH: '/old/bin' }, ...machine, majorVersion })).toBeNull()
    const windows = files('C:/pg/bin/initdb.exe', 'C:/pg/bin/pg_ctl.exe')
    expect(
      findPostgres({
        platform: 'win32',
        env: { PATH: 'C:/Windows;C:/pg/bin', PATHEXT: '.COM;.EXE' },
        ...windows,
        majorVersion: version({ 'C:/pg/bin/initdb.exe': 17 }),
      }),
    ).toEqual({ bin: 'C:/pg/bin', version: 17 })
  })

  it("the OS's usual folders when PATH has none: Debian's versioned folders, Homebrew's keg-only formula", () => {
    const debian = files(
      '/usr/lib/postgresql/15/bin/initdb',
      '/usr/lib/postgresql/15/bin/pg_ctl',
      '/usr/lib/postgresql/17/bin/initdb',
      '/usr/lib/postgresql/17/bin/pg_ctl',
    )
    expect(
      findPostgres({
        platform: 'linux',
        env: { PATH: '/usr/bin' },
        ...debian,
        majorVersion: version({ '/usr/lib/postgresql/15/bin/initdb': 15, '/usr/lib/postgresql/17/bin/initdb': 17 }),
      }),
    ).toEqual({ bin: '/usr/lib/postgresql/17/bin', version: 17 })
    const homebrew = files('/opt/homebrew/opt/postgresql@17/bin/initdb', '/opt/homebrew/opt/postgresql@17/bin/pg_ctl')
    expect(
      findPostgres({
        platform: 'darwin',
        env: { PATH: '/usr/bin' },
        ...homebrew,
        majorVersion: version({ '/opt/homebrew/opt/postgresql@17/bin/initdb': 17 }),
      }),
    ).toEqual({ bin: '/opt/homebrew/opt/postgresql@17/bin', version: 17 })
  })
})

describe.runIf(process.platform === 'linux')('test preflight on this machine', () => {
  const preflight = (env: NodeJS.ProcessEnv) =>
    run(process.execPath, ['scripts/preflight.mjs'], { env }).then(
      (done) => ({ code: 0, stdout: done.stdout, stderr: done.stderr }),
      (error: { code: number; stdout: string; stderr: string }) => error,
    )

  it('says in one line what to install when Chromium is missing', async () => {
    const outcome = await preflight({ ...process.env, PAYOUT_DESK_CHROMIUM: '/nonexistent/chromium' })
    expect(outcome.code).toBe(1)
    expect(outcome.stderr.trim().split('\n')).toEqual([
      'Missing: Chromium (PAYOUT_DESK_CHROMIUM=/nonexistent/chromium does not exist). Install with: sudo apt-get install -y chromium-headless-shell',
    ])
  })

  it('says to install poppler-utils when the PDF tools are missing', async () => {
    // A PATH with every other tool the preflight looks for, and no pdftotext, pdftoppm or pdfinfo.
    const bin = await mkdtemp(join(tmpdir(), 'preflight-bin-'))
    try {
      for (const tool of [
        'sh',
        'grep',
        'ldconfig',
        'pkg-config',
        'gnome-keyring-daemon',
        'dbus-run-session',
        'openssl',
        'initdb',
        'pg_ctl',
      ]) {
        const found = execFileSync('sh', ['-c', `command -v ${tool} || echo /usr/lib/postgresql/15/bin/${tool}`])
          .toString()
          .trim()
        await symlink(found, join(bin, tool))
      }
      const outcome = await preflight({ ...process.env, PATH: bin })
      expect(outcome.code).toBe(1)
      expect(outcome.stderr.trim()).toBe(
        'Missing: poppler-utils (pdftotext, pdftoppm, pdfinfo). Install with: sudo apt-get install -y poppler-utils',
      )
    } finally {
      await rm(bin, { recursive: true, force: true })
    }
  })

  it('says so when PostgreSQL, which the team tests start, is missing', async () => {
    const outcome = await preflight({ ...process.env, PAYOUT_DESK_PG_BIN: '/nonexistent/postgresql/bin' })
    expect(outcome.code).toBe(1)
    expect(outcome.stderr.trim()).toBe(
      'Missing: PostgreSQL 15 or later (PAYOUT_DESK_PG_BIN=/nonexistent/postgresql/bin has no initdb and pg_ctl of 15 or later). Install with: sudo apt-get install -y postgresql',
    )
  })

  it('passes on a machine that has everything', async () => {
    const { stdout } = await run(process.execPath, ['scripts/preflight.mjs'])
    expect(stdout.trim()).toBe('preflight: everything the tests need is installed')
  })
})
