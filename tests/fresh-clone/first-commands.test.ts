/**
 * The commands the README names, run on a fresh clone as a newcomer runs them (decision 67):
 * nothing is built yet. `npm run check-sheet` builds itself first and answers, with no stack trace;
 * `npm run bridge` builds the app first and serves it, with a keychain even on a session that has
 * none (a private GNOME Keyring for the run), and uses the session's own when it answers. The
 * README's other commands are each run here too, or named with the test that runs them from a
 * fresh checkout.
 */
import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { existsSync, readFileSync, rmSync, statSync, utimesSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PROJECT_ROOT, cleanCopyOfProject } from '../support/clean-copy'
import type { CleanCopy } from '../support/clean-copy'
import { npmCommand, runCommand } from '../support/run-command'

let copy: CleanCopy

beforeAll(() => {
  copy = cleanCopyOfProject()
}, 120_000)

afterAll(() => copy?.remove(), 120_000)

describe('npm run check-sheet on a fresh clone', () => {
  const checkSheet = (...args: string[]) =>
    runCommand([...npmCommand(), 'run', '--silent', 'check-sheet', '--', ...args], { cwd: copy.dir })

  it('builds itself first (saying so on stderr), then answers on stdout, with no stack trace', async () => {
    expect(existsSync(join(copy.dir, 'out/cli/check-sheet.js'))).toBe(false)
    const outcome = await checkSheet('resources/templates/payouts-example.csv', '--json')
    expect(outcome.stderr).not.toMatch(/\n\s+at |Cannot find module/)
    expect(outcome.stderr.trim().split('\n')[0]).toBe(
      'Building check-sheet first (out/cli/check-sheet.js is not built yet).',
    )
    expect(outcome.code).toBe(0)
    const report = JSON.parse(outcome.stdout) as { rows: number; valid: number }
    expect(report.rows).toBeGreaterThan(0)
    expect(report.valid).toBe(report.rows)
  }, 180_000)

  it('runs the build it has, and builds again when a source changed since', async () => {
    const again = await checkSheet('resources/templates/payouts-example.csv', '--json')
    expect(again.code).toBe(0)
    expect(again.stderr).toBe('')
    const later = new Date(Date.now() + 5_000)
    utimesSync(join(copy.dir, 'shared/money.ts'), later, later)
    const rebuilt = await checkSheet('resources/templates/payouts-example.csv', '--json')
    expect(rebuilt.code).toBe(0)
    expect(rebuilt.stderr.trim().split('\n')[0]).toBe(
      'Building check-sheet first (shared/money.ts changed since out/cli/check-sheet.js was built).',
    )
  }, 180_000)
})

describe.runIf(process.platform === 'linux')('npm run bridge on a fresh clone', () => {
  const running: ChildProcess[] = []

  afterAll(() => {
    // The bridge and what it started (npm, with-keychain's D-Bus session) are this test's own group.
    for (const child of running) if (child.pid && child.exitCode === null) process.kill(-child.pid, 'SIGTERM')
  })

  /** Starts the bridge as the README says, and waits for the address it prints. */
  function startBridge(env: NodeJS.ProcessEnv): Promise<{ appUrl: string; output: () => string }> {
    const [command, ...args] = npmCommand()
    const child = spawn(command!, [...args, 'run', '--silent', 'bridge', '--', '--port', '0'], {
      cwd: copy.dir,
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    running.push(child)
    let output = ''
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`The bridge did not start:\n${output}`)), 240_000)
      const read = (chunk: Buffer) => {
        output += chunk.toString()
        const match = /^Open (http:\/\/127\.0\.0\.1:\d+\/\S+)$/m.exec(output)
        if (match) {
          clearTimeout(timer)
          resolve({ appUrl: match[1]!, output: () => output })
        }
      }
      child.stdout!.on('data', read)
      child.stderr!.on('data', read)
      child.on('exit', () => reject(new Error(`The bridge stopped:\n${output}`)))
    })
  }

  async function keychainOf(appUrl: string): Promise<{ available: boolean }> {
    const url = new URL(appUrl)
    const token = [...url.searchParams.values()][0]!
    const answer = await fetch(new URL('/ipc/profiles:list', url.origin), {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, origin: url.origin, 'content-type': 'application/json' },
      body: JSON.stringify({}),
    })
    const result = (await answer.json()) as { ok: boolean; data: { keychain: { available: boolean } } }
    expect(result.ok).toBe(true)
    return result.data.keychain
  }

  const withoutSession = () => {
    const env = { ...process.env }
    delete env['DBUS_SESSION_BUS_ADDRESS']
    delete env['PAYOUT_DESK_KEYCHAIN']
    return env
  }

  it('builds the app first, serves it, and has a keychain on a session that has none', async () => {
    expect(existsSync(join(copy.dir, 'out/renderer/index.html'))).toBe(false)
    const bridge = await startBridge(withoutSession())
    expect(bridge.output()).toContain('Building the app first (out/renderer/index.html is not built yet).')
    expect(bridge.output()).toContain(
      'No keychain answers on this session: the bridge uses a private GNOME Keyring for this run; keys saved in Settings are forgotten when it stops.',
    )
    const page = await fetch(bridge.appUrl)
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('<title>Payout Desk</title>')
    expect(await keychainOf(bridge.appUrl)).toMatchObject({ available: true })
  }, 300_000)

  it("uses the session's own keychain when it answers, and builds nothing when the build is current", async () => {
    // This test run's private session stands for a desktop login's.
    const env = { ...process.env }
    delete env['PAYOUT_DESK_KEYCHAIN']
    const bridge = await startBridge(env)
    expect(bridge.output()).not.toMatch(/Building|No keychain/)
    expect(await keychainOf(bridge.appUrl)).toMatchObject({ available: true })
  }, 120_000)
})

/**
 * Every command the README names, and where it is run from a fresh clone. A command added to the
 * README fails the first test until it is placed here, with the test that runs it.
 */
const README_COMMANDS: Record<string, string> = {
  'npm ci': '.ci/run and the CI workflow, on a fresh checkout',
  'npm start': 'tests/fresh-clone/start.test.ts',
  'npm run dev': 'tests/fresh-clone/start.test.ts',
  'npm run bridge': 'this file',
  'npm test': '.ci/run and the CI workflow, on a fresh checkout',
  'node scripts/preflight.mjs': 'tests/unit/scripts/preflight.test.ts (as a person runs it, on Linux)',
  'npm run test:unit': 'npm test runs the same steps on a fresh checkout (.ci/run)',
  'npm run typecheck': 'npm test, on a fresh checkout (.ci/run)',
  'npm run build': 'npm test, on a fresh checkout (.ci/run)',
  'npm run package': 'tests/fresh-clone/package-dir.test.ts',
  'npm run sandbox': 'this file',
  'npm run check-sheet': 'this file',
  'npm run team:migrate': 'this file; a real migration in tests/unit/scripts/team-migrate.test.ts',
  'npm run templates': 'this file',
  'npm run bank-list': 'this file',
  'npm run bench:<name>': 'not from a fresh clone here (each is minutes of load); those that need a build build first',
}

describe("the README's commands", () => {
  it('are each run from a fresh clone by a test, or by npm test on a fresh checkout', () => {
    const readme = readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8')
    const named = new Set(
      // Inline (`npm run x`) and on lines of their own in a code block.
      [...readme.matchAll(/`((?:npm|node) [^`]*)`|^((?:npm|node) .*)$/gm)].map((match) =>
        (match[1] ?? match[2]!)
          .replace(/ --silent/, '')
          .replace(/ -- .*$/, '')
          .trim(),
      ),
    )
    expect([...named].filter((command) => !(command in README_COMMANDS))).toEqual([])
  })

  it('npm run sandbox serves the payments service on the port asked for, with nothing built', async () => {
    const [command, ...args] = npmCommand()
    const child = spawn(command!, [...args, 'run', '--silent', 'sandbox', '--', '--port', '0'], {
      cwd: copy.dir,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    try {
      let output = ''
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`The sandbox did not start:\n${output}`)), 120_000)
        const read = (chunk: Buffer) => {
          output += chunk.toString()
          const match = /^Sandbox listening on (http:\/\/127\.0\.0\.1:\d+)$/m.exec(output)
          if (match) {
            clearTimeout(timer)
            resolve(match[1]!)
          }
        }
        child.stdout.on('data', read)
        child.stderr.on('data', read)
        child.on('exit', () => reject(new Error(`The sandbox stopped:\n${output}`)))
      })
      const answer = await fetch(`${url}/merchant/api/v1/misc/banks?countryCode=NG`, {
        headers: { authorization: 'Bearer sk_test_sandbox' },
      })
      expect(answer.status).toBe(200)
      const banks = (await answer.json()) as { data: { name: string }[] }
      expect(banks.data.length).toBeGreaterThan(0)
    } finally {
      if (child.pid && child.exitCode === null) process.kill(-child.pid, 'SIGTERM')
    }
  }, 150_000)

  it('npm run templates and npm run bank-list write their files, with nothing built', async () => {
    const templates = join(copy.dir, 'resources/templates/payouts-template.xlsx')
    const bankList = join(copy.dir, 'shared/banks/bank-list.json')
    rmSync(templates)
    rmSync(bankList)
    const made = await runCommand([...npmCommand(), 'run', '--silent', 'templates'], { cwd: copy.dir })
    expect(made.stderr).toBe('')
    expect(made.code).toBe(0)
    expect(statSync(templates).size).toBeGreaterThan(0)
    const listed = await runCommand([...npmCommand(), 'run', '--silent', 'bank-list'], { cwd: copy.dir })
    expect(listed.stderr).toBe('')
    expect(listed.code).toBe(0)
    expect(readFileSync(bankList, 'utf8')).toBe(readFileSync(join(PROJECT_ROOT, 'shared/banks/bank-list.json'), 'utf8'))
  }, 180_000)

  it('npm run team:migrate without a connection says how it is used, exit 2, no stack', async () => {
    const outcome = await runCommand([...npmCommand(), 'run', '--silent', 'team:migrate'], { cwd: copy.dir })
    expect(outcome.code).toBe(2)
    expect(outcome.stderr).not.toMatch(/\n\s+at /)
    expect(outcome.stderr.split('\n')[0]).toBe('Give the connection: postgres://OWNER@HOST:PORT/DATABASE.')
    expect(outcome.stderr).toContain('Usage: npm run --silent team:migrate --')
  }, 120_000)
})
