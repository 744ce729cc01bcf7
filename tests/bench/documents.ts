/**
 * Benchmark: the PDF documents (decision 47).
 *
 *   node --import tsx tests/bench/documents.ts          (npm run bench:documents)
 *   DOCUMENT_ROWS=1000,10000 node --import tsx tests/bench/documents.ts
 *
 * Run summaries of 1,000, 10,000 and 100,000 rows made as the app makes them, worked out on main
 * in slices of rows and drawn in the PDF worker (seconds, pages, size, and the longest stretch
 * main's event loop was held: what is left on main is a slice of rows, handing the summary over
 * and taking the bytes back), and payment advices one after another
 * in one worker, as the ZIP of a run's paid rows makes them (advices per second, longest stall).
 * Prints figures; it asserts nothing.
 */
import { loadavg } from 'node:os'
import type { RunRow } from '../../shared/domain/bulk-run'
import { institutionDirectory } from '../../shared/words/institutions'
import { openPdfRenderer, renderPdf } from '../../electron/main/services/documents/pdf-renderer'
import { runSummaryInSlices } from '../../electron/main/services/documents/run-summary'
import { runSummaryPageCount } from '../../electron/main/services/documents/run-summary-pdf'

const directory = institutionDirectory(
  [
    { code: '058', name: 'Guaranty Trust Bank', country: 'NG' },
    { code: '044', name: 'Access Bank', country: 'NG' },
  ],
  [],
)

function rows(count: number): RunRow[] {
  const statuses = ['success', 'success', 'success', 'failed'] as const
  return Array.from({ length: count }, (_, i) => ({
    index: i,
    item: {
      row: i + 2,
      reference: `PAY-${String(i).padStart(7, '0')}`,
      amount: `${1000 + (i % 9000)}.${String(i % 100).padStart(2, '0')}`,
      bank_code: i % 3 ? '058' : '044',
      account_number: `01${String(i).padStart(8, '0')}`,
      customer_name: i % 7 ? `Chidínma Ọkọ́nkwọ́ ${i % 997}` : `Zoë Müller Trading Company Limited ${i % 97}`,
      customer_email: `p${i % 997}@example.com`,
      narration: 'Salary',
    },
    excluded: i % 500 === 0,
    errors: [],
    warnings: [],
    resolution: 'matched',
    status: statuses[i % statuses.length]!,
    ...(i % 4 === 0 ? { fee: '53.75' } : {}),
    ...(i % 4 === 3 ? { message: 'Beneficiary account is dormant' } : {}),
  }))
}

/** Measures the longest gap between turns of the event loop while `work` runs. */
async function timed<T>(work: () => Promise<T>): Promise<{ result: T; seconds: number; longestStallMs: number }> {
  let last = performance.now()
  let longest = 0
  const timer = setInterval(() => {
    const now = performance.now()
    longest = Math.max(longest, now - last)
    last = now
  }, 1)
  const started = performance.now()
  try {
    const result = await work()
    return {
      result,
      seconds: (performance.now() - started) / 1000,
      longestStallMs: Math.max(longest, performance.now() - last),
    }
  } finally {
    clearInterval(timer)
  }
}

async function main(): Promise<void> {
  console.log(
    `load average ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  )
  const sizes = (process.env['DOCUMENT_ROWS'] ?? '1000,10000,100000').split(',').map(Number)
  for (const count of sizes) {
    const runRows = rows(count)
    // As the app makes it: worked out on main in slices of rows, then drawn in the PDF worker.
    const made = await timed(async () => {
      const summary = await runSummaryInSlices({
        runId: 'BR20261123T195012Zabc123def0',
        fileName: 'payroll.xlsx',
        fileSha256: 'ab'.repeat(32),
        sheet: 'Payroll',
        description: '',
        createdAt: '2026-11-23T19:50:12.000Z',
        stage: 'completed',
        mode: 'live',
        currency: 'NGN',
        merchantBearsCost: false,
        profileName: 'Acme',
        payer: 'Acme Trading Ltd',
        preparedBy: 'bench',
        rows: runRows,
        directory,
      })
      return { summary, bytes: await renderPdf({ kind: 'summary', input: summary, options: { issuedAt: new Date() } }) }
    })
    const { result, seconds, longestStallMs } = made
    const { summary } = result
    console.log(
      `run summary ${count.toLocaleString('en')} rows: ${seconds.toFixed(2)} s, ${runSummaryPageCount(summary)} pages, ` +
        `${(result.bytes.length / 1024 / 1024).toFixed(1)} MiB, ${Math.round(count / seconds).toLocaleString('en')} rows/s, ` +
        `longest stall of main ${longestStallMs.toFixed(0)} ms, RSS ${Math.round(process.memoryUsage().rss / 1024 / 1024)} MB`,
    )
  }
  const advices = Number(process.env['DOCUMENT_ADVICES'] ?? 200)
  const renderer = openPdfRenderer()
  const { seconds, longestStallMs } = await timed(async () => {
    for (let i = 0; i < advices; i++) {
      await renderer.render({
        kind: 'advice',
        input: {
          payer: 'Acme Trading Ltd',
          beneficiary: `Chidínma Ọkọ́nkwọ́ ${i}`,
          beneficiaryEmail: 'chi@example.com',
          institution: 'Guaranty Trust Bank',
          kind: 'bank_account',
          account: '••••••6789',
          amount: `${1000 + i}.50`,
          currency: 'NGN',
          fee: '53.75',
          narration: 'Salary',
          reference: `PAY-${i}`,
          batchReference: 'BR-B0001',
          traceId: `TRACE-${i}`,
          paidAt: '2026-11-23T19:50:12Z',
          mode: 'live',
          source: 'Bulk run',
        },
        options: { issuedAt: new Date() },
      })
    }
  })
  renderer.close()
  console.log(
    `payment advices: ${advices} in ${seconds.toFixed(2)} s, ${(advices / seconds).toFixed(1)} per second (${((seconds / advices) * 1000).toFixed(1)} ms each), longest stall of main ${longestStallMs.toFixed(0)} ms`,
  )
}

void main()
