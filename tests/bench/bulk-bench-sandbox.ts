/**
 * The simulator for the bulk benchmarks, in its own process (as the real service is remote): its
 * CPU time then does not share the event loop with the run being measured.
 */
import { spawn } from 'node:child_process'
import { join } from 'node:path'

export interface BenchSandbox {
  url: string
  close(): Promise<void>
}

export async function startBenchSandbox(secretKey: string, settleMs: number): Promise<BenchSandbox> {
  const root = join(__dirname, '..', '..')
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join('electron', 'sandbox', 'cli.ts'),
      '--port',
      '0',
      '--secret-key',
      secretKey,
      '--settle-ms',
      String(settleMs),
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
  )
  const url = await new Promise<string>((resolve, reject) => {
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const match = /Sandbox listening on (http:\/\/\S+)/.exec(out)
      if (match) resolve(match[1]!)
    })
    child.on('exit', (code) => reject(new Error(`sandbox exited with ${code}`)))
  })
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        child.on('exit', () => resolve())
        child.kill('SIGTERM')
      }),
  }
}
