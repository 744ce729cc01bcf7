/**
 * The renderer for the bulk benchmarks: the built renderer in Debian's Chromium through the bridge,
 * driven by Playwright from its own process (bench-renderer-process.ts), as the screen is apart
 * from main in the app. Driven from the benchmark's process, Playwright's client and its server
 * side (every CDP message of the page, parsed) lived in the process measured as main: some 55 MB
 * of main's RSS, at the start and at its peak in the name checks (decision 182). The samples
 * come here: the page's JS heap (CDP JSHeapUsedSize) and the seconds of tasks its main thread ran
 * (CDP TaskDuration), every 500 ms.
 */
import { fork } from 'node:child_process'
import { join } from 'node:path'

/** What the driver says (bench-renderer-process.ts). */
export type RendererReport =
  | { type: 'sample'; heapUsed: number; taskSeconds: number | null }
  | { type: 'opened' }
  | { type: 'failed'; message: string }
  | { type: 'ready' }
  | { type: 'stopped' }

/** What the driver is asked. */
export type RendererOrder = { type: 'open' } | { type: 'stop' }

export interface BenchRenderer {
  /** The highest JS heap sampled so far, in bytes. */
  heapPeak(): number
  /** The seconds of tasks the page's main thread ran so far (null before the first sample). */
  taskSeconds(): number | null
  /** Opens the newest run on the Bulk screen, as a person does. */
  openRun(): Promise<void>
  /** Closes Chromium and ends the driver. */
  stop(): Promise<void>
}

/** Starts Chromium (at `executablePath`, else Playwright's own) on `appUrl#/bulk` from a process of its own; resolves once the page is loaded. */
export async function startBenchRenderer(appUrl: string, executablePath?: string): Promise<BenchRenderer> {
  const child = fork(join(__dirname, 'bench-renderer-process.ts'), [appUrl, executablePath ?? ''], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  // A benchmark that ends with process.exit (--stop-after) takes its browser with it.
  const orphaned = (): void => void child.kill('SIGKILL')
  process.once('exit', orphaned)
  let peak = 0
  let tasks: number | null = null
  const waiting: Array<{ type: RendererReport['type']; resolve: () => void; reject: (error: Error) => void }> = []
  const settle = (type: RendererReport['type'], error?: Error): void => {
    const at = waiting.findIndex((w) => w.type === type)
    if (at < 0) return
    const [w] = waiting.splice(at, 1)
    if (error) w!.reject(error)
    else w!.resolve()
  }
  child.on('message', (report: RendererReport) => {
    if (report.type === 'sample') {
      peak = Math.max(peak, report.heapUsed)
      if (report.taskSeconds !== null) tasks = report.taskSeconds
    } else if (report.type === 'failed') settle('opened', new Error(report.message))
    else settle(report.type)
  })
  const ended = new Promise<void>((resolve) =>
    child.once('exit', (code) => {
      process.off('exit', orphaned)
      for (const w of waiting.splice(0)) w.reject(new Error(`the renderer's driver ended (exit code ${code})`))
      resolve()
    }),
  )
  const expect = (type: RendererReport['type'], order?: RendererOrder): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      waiting.push({ type, resolve, reject })
      if (order) child.send(order)
    })
  await expect('ready')
  return {
    heapPeak: () => peak,
    taskSeconds: () => tasks,
    openRun: () => expect('opened', { type: 'open' }),
    async stop() {
      if (child.exitCode === null && child.connected) child.send({ type: 'stop' } satisfies RendererOrder)
      await ended
    },
  }
}
