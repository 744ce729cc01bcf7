import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { parseCliArguments } from '../../../electron/sandbox/cli-options'

const ROOT = join(__dirname, '..', '..', '..')
const children: ChildProcess[] = []

afterEach(() => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
})

function run(args: string[]): { child: ChildProcess; output: () => string; errors: () => string } {
  const child = spawn(process.execPath, [join(ROOT, 'scripts', 'sandbox.mjs'), ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  children.push(child)
  let stdout = ''
  let stderr = ''
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  return { child, output: () => stdout, errors: () => stderr }
}

async function waitFor(check: () => boolean, deadlineMs = 15_000): Promise<void> {
  const deadline = Date.now() + deadlineMs
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the sandbox CLI')
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

describe('sandbox CLI', () => {
  it('prints the real URL for --port 0, serves with the given key, and exits 0 on SIGTERM', async () => {
    const { child, output } = run([
      '--port',
      '0',
      '--secret-key',
      'sk_test_demo',
      '--encryption-key',
      'cli-test-encryption-key-32-bytes',
      '--settle-ms',
      '200',
    ])
    await waitFor(() => output().includes('\n'))
    const match = /^Sandbox listening on (http:\/\/127\.0\.0\.1:(\d+))\n$/.exec(output())
    expect(match).not.toBeNull()
    expect(Number(match?.[2])).toBeGreaterThan(0)
    const answer = await fetch(`${match?.[1]}/merchant/api/v1/misc/banks?countryCode=NG`, {
      headers: { authorization: 'Bearer sk_test_demo' },
    })
    expect(answer.status).toBe(200)
    // Admin endpoints are on by default in the CLI.
    expect(
      (
        await fetch(`${match?.[1]}/__sandbox/faults`, {
          method: 'DELETE',
          headers: { authorization: 'Bearer sk_test_demo' },
        })
      ).status,
    ).toBe(200)
    child.kill('SIGTERM')
    const [code, signal] = (await once(child, 'exit')) as [number | null, string | null]
    expect(code === 0 || signal === 'SIGTERM').toBe(true)
  })

  it('rejects bad flags with a clear error and exit code 2', async () => {
    const { child, errors } = run(['--encryption-key', 'short'])
    const [code] = (await once(child, 'exit')) as [number | null]
    expect(code).toBe(2)
    expect(errors()).toContain('sandbox: --encryption-key must be exactly 32 bytes (UTF-8), got 5')
  })

  it('parses flags with defaults', () => {
    expect(parseCliArguments([])).toEqual({
      port: 4010,
      secretKey: 'sk_test_sandbox',
      encryptionKey: 'sandbox-encryption-key-32-bytes!',
      settleMs: 1500,
      admin: true,
    })
    expect(
      parseCliArguments(['--port=0', '--settle-ms', '50', '--seed', '7', '--no-admin', '--host', '::1']),
    ).toMatchObject({
      port: 0,
      settleMs: 50,
      seed: 7,
      admin: false,
      host: '::1',
    })
    expect(parseCliArguments(['--state-file', '/tmp/sandbox-state.jsonl']).stateFile).toBe('/tmp/sandbox-state.jsonl')
    expect(() => parseCliArguments(['--state-file', ' '])).toThrow('--state-file must not be empty')
    expect(() => parseCliArguments(['--port', '70000'])).toThrow(
      '--port must be an integer from 0 to 65535, got "70000"',
    )
    expect(() => parseCliArguments(['--host', '0.0.0.0'])).toThrow(/loopback/)
    expect(() => parseCliArguments(['--settle-ms'])).toThrow('--settle-ms needs a value')
    expect(() => parseCliArguments(['--colour', 'red'])).toThrow('unknown option "--colour"')
  })
})
