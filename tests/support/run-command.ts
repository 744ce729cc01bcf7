/**
 * Runs a command as a person would in a terminal, without blocking the test's event loop (a loopback
 * server in the test must keep answering it), and gives back its exit code and output.
 */
import { spawn } from 'node:child_process'

export interface CommandOutcome {
  code: number
  stdout: string
  stderr: string
}

/** `npm` itself: the npm running the tests when there is one, else the one on PATH. */
export function npmCommand(): string[] {
  const cli = process.env['npm_execpath']
  return cli && /npm-cli\.c?js$/.test(cli) ? [process.execPath, cli] : ['npm']
}

export function runCommand(
  argv: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<CommandOutcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0]!, argv.slice(1), {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      shell: process.platform === 'win32' && argv[0] === 'npm',
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 300_000)
    child.on('error', reject)
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      resolve({ code: code ?? (signal ? 128 : 1), stdout, stderr })
    })
  })
}
