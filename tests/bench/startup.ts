/**
 * Start-up of the renderer, measured in Chromium through the bridge (the same built renderer the
 * desktop window loads). Prints, over several cold loads:
 *
 * - time to interactive: from navigation start to the first screen being usable, that is the
 *   Payouts heading visible AND the first form control of the screen enabled (a button, input,
 *   select or textarea inside <main>), taken from performance.now() in the page (navigation start
 *   is its zero) at the first animation frame where both hold;
 * - JavaScript loaded for it: the sum of the decoded sizes of every script the page fetched until
 *   then (PerformanceResourceTiming.decodedBodySize of the scripts, so uncompressed bytes).
 *
 *   npm run build && node scripts/with-keychain.mjs node --import tsx tests/bench/startup.ts [runs] [--detail]
 *
 * --detail also lists what the median run fetched until then: each script with its size, each IPC
 * call, with when it started and ended.
 *
 * Targets (decision 25): under 1000 ms and under 600 kB. It prints figures and ratios; it asserts
 * nothing, so a slow, shared machine cannot make the suite flaky.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { chromium } from '@playwright/test'
import { startBridgeApp } from '../../electron/main/bridge-app'
import { chromiumExecutablePath } from '../../scripts/test-tools.cjs'

const TARGET_MS = 1000
const TARGET_BYTES = 600 * 1024

interface Sample {
  interactiveMs: number
  scriptBytes: number
  scripts: number
  /** What the page fetched until interactive: scripts and IPC calls, with their times. */
  fetched: Array<{ name: string; bytes: number; start: number; end: number }>
}

/**
 * Runs in the page: resolves at the first frame where the first screen is usable. A string, not a
 * function: tsx would wrap a function with helpers that do not exist in the page.
 */
const WHEN_INTERACTIVE = `new Promise((resolve) => {
  function check() {
    const heading = document.querySelector('main h1')
    const control = document.querySelector(
      'main button:not([disabled]), main input:not([disabled]), main select:not([disabled]), main textarea:not([disabled])',
    )
    const visible = heading instanceof HTMLElement && heading.offsetParent !== null && heading.textContent.trim() === 'Payouts'
    if (visible && control) {
      performance.mark('first-screen-interactive')
      const scripts = performance
        .getEntriesByType('resource')
        .filter((entry) => entry.initiatorType === 'script' || /\\.js($|\\?)/.test(entry.name))
      resolve({
        interactiveMs: performance.now(),
        scriptBytes: scripts.reduce((sum, entry) => sum + entry.decodedBodySize, 0),
        scripts: scripts.length,
        fetched: performance.getEntriesByType('resource').map((entry) => ({
          name: new URL(entry.name).pathname,
          bytes: entry.decodedBodySize,
          start: entry.startTime,
          end: entry.responseEnd,
        })),
      })
      return
    }
    requestAnimationFrame(check)
  }
  check()
})`

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN
}

async function main(): Promise<void> {
  const args = process.argv.slice(2)
  // --detail: also list what the median run fetched (each script's size, each IPC call's times).
  const detail = args.includes('--detail')
  const runs = Number(args.find((arg) => /^\d+$/.test(arg)) ?? 5)
  const userDataDir = await mkdtemp(join(tmpdir(), 'payout-desk-bench-'))
  const running = await startBridgeApp({ userDataDir, staticDir: resolve(__dirname, '../../out/renderer') })
  const browser = await chromium.launch({
    executablePath: chromiumExecutablePath(),
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  })
  const samples: Sample[] = []
  try {
    for (let run = 0; run < runs; run += 1) {
      // A fresh context each time: nothing cached, as on a window's first open.
      const context = await browser.newContext({ viewport: { width: 1280, height: 820 } })
      const page = await context.newPage()
      await page.goto(running.bridge.appUrl, { waitUntil: 'commit' })
      samples.push((await page.evaluate(WHEN_INTERACTIVE)) as Sample)
      await context.close()
    }
  } finally {
    await browser.close()
    await running.close()
    await rm(userDataDir, { recursive: true, force: true })
  }

  const interactive = median(samples.map((sample) => sample.interactiveMs))
  const bytes = median(samples.map((sample) => sample.scriptBytes))
  const scripts = median(samples.map((sample) => sample.scripts))
  console.log(`Start-up of the first screen (Payouts), ${runs} cold loads in Chromium through the bridge`)
  console.log(`  runs (ms): ${samples.map((sample) => Math.round(sample.interactiveMs)).join(', ')}`)
  console.log(
    `  time to interactive (median): ${Math.round(interactive)} ms (target ${TARGET_MS} ms, ratio ${(interactive / TARGET_MS).toFixed(2)})`,
  )
  console.log(
    `  JavaScript loaded: ${(bytes / 1024).toFixed(1)} kB in ${scripts} scripts (target ${TARGET_BYTES / 1024} kB, ratio ${(bytes / TARGET_BYTES).toFixed(2)})`,
  )
  if (detail) {
    const typical = [...samples].sort((a, b) => a.interactiveMs - b.interactiveMs)[Math.floor(samples.length / 2)]
    console.log(`  fetched by the median run (interactive at ${Math.round(typical?.interactiveMs ?? 0)} ms):`)
    for (const entry of typical?.fetched ?? [])
      console.log(
        `    ${String(Math.round(entry.start)).padStart(5)}–${String(Math.round(entry.end)).padEnd(5)} ms ${(entry.bytes / 1024).toFixed(1).padStart(6)} kB  ${entry.name}`,
      )
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
})
