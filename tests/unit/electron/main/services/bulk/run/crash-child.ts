/**
 * The process that a crash-resume test kills: it opens the run folder and journal of USER_DATA
 * (reconciling what a killed predecessor left open), resumes the run or starts it, and drives it to
 * completion, then prints DONE and exits. It prints SEND-START and SEND-END around each batch
 * request. Run with `node --import tsx crash-child.ts`.
 */
import { writeSync } from 'node:fs'
import { csvBytes, openHarness, sheetOf } from './harness'

const env = (name: string): string => {
  const value = process.env[name]
  if (!value) throw new Error(`${name} is required`)
  return value
}

async function main(): Promise<void> {
  const rows = Number(env('ROWS'))
  const harness = await openHarness({
    userDataDir: env('USER_DATA'),
    sandboxUrl: env('SANDBOX_URL'),
    secretKey: env('SANDBOX_KEY'),
    timeoutMs: 2000,
    pollMs: 50,
    submitConcurrency: 2,
    // Each batch request, as it leaves and as its answer comes back, so the test can tell a kill
    // that landed while a request was in flight (written at once: a SIGKILL must not lose them).
    wrapApi: (api) => ({
      ...api,
      bulk: {
        ...api.bulk,
        initiate: async (body) => {
          writeSync(1, `SEND-START ${body.batch_reference}\n`)
          try {
            return await api.bulk.initiate(body)
          } finally {
            writeSync(1, `SEND-END ${body.batch_reference}\n`)
          }
        },
      },
    }),
  })
  const { service } = harness
  await harness.reconciler.run()
  await service.resumeAll()
  process.stdout.write('READY\n')
  if (service.list().length === 0) {
    const sheet = sheetOf(rows, new Set([3, rows - 2]), 'CRASH')
    await service.create({ result: sheet, bytes: csvBytes(sheet), currency: 'NGN' })
  }
  const runId = service.list()[0]!.id
  // The stage, as it changes, so the test can aim its kills at every step.
  let shown = ''
  const watch = setInterval(() => {
    const { stage } = service.view(runId)
    if (stage !== shown) process.stdout.write(`STAGE ${(shown = stage)}\n`)
  }, 5)
  for (;;) {
    await service.idle()
    const { stage } = service.view(runId)
    if (stage === 'completed') break
    if (stage === 'resolving') await service.startResolution(runId)
    else if (stage === 'review') await service.submit(runId)
    else if (stage === 'attention') await service.recheck(runId)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  clearInterval(watch)
  await harness.close()
  process.stdout.write(`DONE ${runId}\n`)
}

main().catch((error: unknown) => {
  process.stderr.write(`crash-child failed: ${(error as Error).stack ?? String(error)}\n`)
  process.exit(1)
})
