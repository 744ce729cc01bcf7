import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium } from '@playwright/test'
import { startBridgeApp } from '../../electron/main/bridge-app'

const WHEN = `new Promise((resolve) => {
  function check() {
    const heading = document.querySelector('main h1')
    const control = document.querySelector('main button:not([disabled]), main input:not([disabled]), main select:not([disabled]), main textarea:not([disabled])')
    if (heading instanceof HTMLElement && heading.offsetParent !== null && heading.textContent.trim() === 'Payouts' && control) {
      const s = performance.getEntriesByType('resource').filter((e) => e.initiatorType === 'script' || /\\.js($|\\?)/.test(e.name))
      resolve([performance.now(), s.reduce((a, e) => a + e.decodedBodySize, 0)]); return }
    requestAnimationFrame(check)
  }
  check()
})`
const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]
async function main(): Promise<void> {
  const dirs = process.argv.slice(2)
  const rounds = Number(process.env['ROUNDS'] ?? 8)
  const apps = await Promise.all(dirs.map(async (dir) => startBridgeApp({ userDataDir: await mkdtemp(join(tmpdir(), 'pd-ab-')), staticDir: dir })))
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] })
  const times: number[][] = dirs.map(() => [])
  const bytes: number[] = dirs.map(() => 0)
  for (let r = 0; r < rounds; r++)
    for (let i = 0; i < dirs.length; i++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 820 } })
      const page = await context.newPage()
      await page.goto(apps[i]!.bridge.appUrl, { waitUntil: 'commit' })
      const [t, b] = (await page.evaluate(WHEN)) as [number, number]
      times[i]!.push(t); bytes[i] = b
      await context.close()
    }
  await browser.close()
  for (const a of apps) await a.close()
  dirs.forEach((d, i) => console.log(d, 'median', Math.round(median(times[i]!)!), 'kB', (bytes[i]! / 1024).toFixed(1), times[i]!.map(Math.round).join(',')))
}
void main()
