/**
 * The simulator for the bulk benchmarks, in its own process (as the real service is remote): its
 * CPU time then does not share the event loop with the run being measured.
 */
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

export interface BenchSandbox {
  url: string
  /** The simulator process's CPU time so far, in seconds (user and system; null where /proc is not). */
  cpuSeconds(): number | null
  close(): Promise<void>
}

/** A process's CPU time from /proc/<pid>/stat (utime and stime, fields 14 and 15, in clock ticks of 1/100 s). */
function cpuSecondsOf(pid: number | undefined): number | null {
  if (pid === undefined) return null
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
    return (Number(fields[11]) + Number(fields[12])) / 100
  } catch {
    return null
  }
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
  // A benchmark that ends with process.exit (--stop-after) takes its Sandbox with it: left
  // running, each held some 200 MB beside the next run.
  const orphaned = (): void => void child.kill('SIGKILL')
  process.once('exit', orphaned)
  child.once('exit', () => process.off('exit', orphaned))
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
    cpuSeconds: () => cpuSecondsOf(child.pid),
    close: () =>
      new Promise<void>((resolve) => {
        child.on('exit', () => resolve())
        child.kill('SIGTERM')
      }),
  }
}
