/**
 * The renderer's driver for the bulk benchmarks, in a process of its own (bench-renderer.ts):
 * Chromium on the app's Bulk screen, its JS heap and main-thread tasks sampled every 500 ms and
 * told to the benchmark, the newest run opened when asked. Arguments: the app's URL, Chromium's path (empty: Playwright's own).
 */
import { chromium } from '@playwright/test'
import type { RendererOrder, RendererReport } from './bench-renderer'

const [appUrl, executablePath] = process.argv.slice(2) as [string, string]
const tell = (report: RendererReport): void => void process.send?.(report)

async function main(): Promise<void> {
  const browser = await chromium.launch({
    ...(executablePath ? { executablePath } : {}),
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  })
  const page = await browser.newPage({ viewport: { width: 1280, height: 820 } })
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Performance.enable')
  await page.goto(`${appUrl}#/bulk`)
  let sampling = true
  const sampler = (async () => {
    while (sampling) {
      try {
        const { metrics } = await cdp.send('Performance.getMetrics')
        tell({
          type: 'sample',
          heapUsed: metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0,
          taskSeconds: metrics.find((m) => m.name === 'TaskDuration')?.value ?? null,
        })
      } catch {
        // the page is busy or closing: the next sample counts
      }
      await new Promise((r) => setTimeout(r, 500))
    }
  })()
  process.on('message', (order: RendererOrder) => {
    if (order.type === 'open')
      void (async () => {
        await page.goto(`${appUrl}#/payouts`)
        await page.goto(`${appUrl}#/bulk`)
        await page.getByTestId('bulk-runs').getByRole('button', { name: 'Open' }).first().click({ timeout: 60_000 })
      })().then(
        () => tell({ type: 'opened' }),
        (error: unknown) => tell({ type: 'failed', message: (error as Error).message.split('\n')[0] ?? '' }),
      )
    else
      void (async () => {
        sampling = false
        await sampler
        await browser.close()
        tell({ type: 'stopped' })
        process.disconnect()
      })()
  })
  tell({ type: 'ready' })
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
