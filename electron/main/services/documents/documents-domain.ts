/**
 * The documents channels: payment advices (a paid payout of the journal, a paid row of a run) and
 * run summaries, made in main as PDFs and delivered through the save dialog (the same FileDialogs
 * adapter every export uses) or the system print dialog (the DocumentPrinter adapter); and one ZIP
 * of the advices of every paid row of a run.
 */
import { writeFile } from 'node:fs/promises'
import { userInfo } from 'node:os'
import { setImmediate as nextTurn } from 'node:timers/promises'
import { strToU8 } from 'fflate'
import type { DocumentOutput, DocumentResult } from '../../../../shared/domain/documents'
import type { documentChannels } from '../../../../shared/ipc/channels/documents'
import { payerOf } from '../../../../shared/domain/profiles'
import { AppFailure } from '../../../../shared/result'
import type { InstitutionDirectory } from '../../../../shared/words/institutions'
import type { RunService } from '../bulk/runs'
import type { DomainService } from '../domain-service'
import { institutionNames } from '../lookups'
import type { ServiceContext } from '../service-context'
import { payoutAdvice, runRowAdvice } from './advice-sources'
import { adviceFileName } from './payment-advice'
import type { PaymentAdvice } from './payment-advice'
import { openPdfRenderer, renderPdf } from './pdf-renderer'
import { writeZipStreaming } from './pdf-zip'
import type { ZipFile } from './pdf-zip'
import { runSummaryInSlices, summaryExtrasOf } from './run-summary'
import { runSummaryFileName } from './run-summary-pdf'

export interface DocumentDomainOptions {
  runs(): Promise<RunService>
  /** The zone dates are told in; the computer's own by default. */
  timeZone?: string
  /** Who prepares documents; the computer's user by default. */
  osUser?: () => string
}

/** The computer's user name, as a run summary names who prepared it. */
function computerUser(): string {
  try {
    return userInfo().username
  } catch {
    return process.env['USER'] ?? process.env['USERNAME'] ?? 'unknown user'
  }
}

export function createDocumentDomain(
  context: ServiceContext,
  options: DocumentDomainOptions,
): DomainService<keyof typeof documentChannels> {
  const osUser = options.osUser ?? computerUser
  /** The ZIPs of advices being made, by run: one at a time per run, each cancellable. */
  const making = new Map<string, { cancelled: boolean }>()

  const directoryFor = (profileId: string, currencies: readonly string[]): Promise<InstitutionDirectory> =>
    institutionNames(context, currencies, profileId)

  async function profileOf(profileId: string): Promise<{ name: string; payer: string }> {
    const profile = (await context.profiles.list()).profiles.find((known) => known.id === profileId)
    return profile ? { name: profile.name, payer: payerOf(profile) } : { name: profileId, payer: profileId }
  }

  async function deliver(
    document: { title: string; fileName: string; bytes: Uint8Array },
    output: DocumentOutput,
  ): Promise<DocumentResult> {
    const base = { fileName: document.fileName, documents: 1 }
    if (output === 'print') {
      return { ...base, path: null, printed: await context.desktop.printer.printPdf(document) }
    }
    const path = await choosePath(`Save ${document.title}`, document.fileName, 'PDF document', 'pdf')
    if (path !== null) {
      try {
        await writeFile(path, document.bytes)
      } catch (error) {
        throw new AppFailure('internal', `Could not write ${path}: ${(error as Error).message}`)
      }
    }
    return { ...base, path, printed: null }
  }

  /** Asks the save dialog where to write; the extension is added when the user left it out. */
  async function choosePath(
    title: string,
    defaultName: string,
    kind: string,
    extension: string,
  ): Promise<string | null> {
    const chosen = await context.desktop.dialogs.chooseSavePath({
      title,
      defaultName,
      filters: [{ name: kind, extensions: [extension] }],
    })
    if (chosen === null) return null
    return chosen.toLowerCase().endsWith(`.${extension}`) ? chosen : `${chosen}.${extension}`
  }

  /** An advice drawn off main's thread: in a worker of its own, or in the ZIP's worker (`render`). */
  async function advicePdf(
    advice: PaymentAdvice,
    render = renderPdf,
  ): Promise<{ title: string; fileName: string; bytes: Uint8Array }> {
    const bytes = await render({ kind: 'advice', input: advice, options: { issuedAt: context.now(), ...zone() } })
    return { title: `Payment advice ${advice.reference}`, fileName: adviceFileName(advice), bytes }
  }

  function zone(): { timeZone?: string } {
    return options.timeZone ? { timeZone: options.timeZone } : {}
  }

  async function runRow(runId: string, index: number): Promise<PaymentAdvice> {
    const runs = await options.runs()
    const state = runs.stateOf(runId)
    const row = runs.rows(runId)[index]
    if (!row) throw new AppFailure('not_found', `Run ${runId} has no row ${index + 1}.`)
    const { payer } = await profileOf(state.profileId)
    const directory = await directoryFor(state.profileId, [state.currency])
    const batch = row.batchReference ? context.journal.get(row.batchReference) : undefined
    return runRowAdvice(state, row, batch, payer, directory)
  }

  return {
    handlers: {
      'documents:payoutAdvice': async ({ reference, output }) => {
        const movement = context.journal.get(reference)
        if (!movement || movement.kind !== 'payout') {
          throw new AppFailure('not_found', `This desk has no payout with the reference ${reference}.`)
        }
        const { payer } = await profileOf(movement.profileId)
        const currency = String((movement.request['destination'] as { currency?: unknown } | undefined)?.currency ?? '')
        const directory = await directoryFor(movement.profileId, [currency])
        return deliver(await advicePdf(payoutAdvice(movement, payer, directory)), output)
      },

      'documents:runRowAdvice': async ({ runId, index, output }) =>
        deliver(await advicePdf(await runRow(runId, index)), output),

      'documents:runSummary': async ({ runId, output }) => {
        const runs = await options.runs()
        const state = runs.stateOf(runId)
        const profile = await profileOf(state.profileId)
        // The fee estimate the review showed (decision 39), while the service's fees are not all known.
        const fees = runs.view(runId).fees
        const extras = summaryExtrasOf(state.imported, fees)
        // Worked out in slices of rows, then drawn in a worker: 100,000 rows never hold main.
        const summary = await runSummaryInSlices({
          runId: state.id,
          fileName: state.fileName,
          fileSha256: state.fileSha256,
          sheet: state.sheet,
          description: state.description,
          createdAt: state.createdAt,
          stage: state.stage,
          mode: state.mode,
          currency: state.currency,
          merchantBearsCost: state.merchantBearsCost,
          ...(state.retryOf ? { retryOf: state.retryOf } : {}),
          profileName: profile.name,
          payer: profile.payer,
          preparedBy: `${osUser()} (profile “${profile.name}”)`,
          rows: runs.rows(runId),
          directory: await directoryFor(state.profileId, [state.currency]),
          ...(extras ? { extras } : {}),
        })
        const bytes = await renderPdf({
          kind: 'summary',
          input: summary,
          options: { issuedAt: context.now(), ...zone() },
        })
        return deliver({ title: `Run summary ${state.id}`, fileName: runSummaryFileName(summary), bytes }, output)
      },

      'documents:cancelAdvices': ({ runId }) => {
        const job = making.get(runId)
        if (job) job.cancelled = true
        return { cancelled: job !== undefined }
      },

      'documents:runAdvices': async ({ runId }) => {
        const runs = await options.runs()
        const state = runs.stateOf(runId)
        const paid = runs.rows(runId).filter((row) => !row.excluded && row.status === 'success')
        if (paid.length === 0) {
          throw new AppFailure('conflict', `Run ${runId} has no paid rows yet: there are no payment advices to save.`)
        }
        const fileName = `Payment advices ${state.id}.zip`
        const { payer } = await profileOf(state.profileId)
        const directory = await directoryFor(state.profileId, [state.currency])
        // Every advice is checked before the dialog: the user never picks a place for a file that cannot be made.
        const advices = paid.map((row) =>
          runRowAdvice(
            state,
            row,
            row.batchReference ? context.journal.get(row.batchReference) : undefined,
            payer,
            directory,
          ),
        )
        if (making.has(runId)) throw new AppFailure('conflict', `The advices of run ${runId} are being saved already.`)
        const path = await choosePath('Save the payment advices', fileName, 'ZIP archive', 'zip')
        if (path === null) return { fileName, path, printed: null, documents: 0 }
        const job = { cancelled: false }
        making.set(runId, job)
        const total = advices.length
        const progress = (done: number | null): void =>
          context.emit('documents:advicesProgress', { runId, progress: done === null ? null : { done, total } })
        const names = new Set<string>()
        // One worker draws every advice of the ZIP, one after another; it ends with the ZIP.
        const renderer = openPdfRenderer()
        async function* files(): AsyncGenerator<ZipFile> {
          yield {
            name: 'README.txt',
            bytes: strToU8(
              `Payment advices of bulk run ${state.id} (${state.fileName}): one PDF per paid row, ${total} in all.\r\n`,
            ),
          }
          let done = 0
          let toldAt = 0
          progress(0)
          for (const advice of advices) {
            if (job.cancelled) throw new AdvicesCancelled()
            yield {
              name: uniqueName(names, adviceFileName(advice)),
              bytes: (await advicePdf(advice, renderer.render)).bytes,
            }
            done += 1
            // Progress a few times a second, not once per advice.
            if (Date.now() - toldAt >= PROGRESS_EVERY_MS || done === total) {
              toldAt = Date.now()
              progress(done)
            }
            // Main answers other work (and a Cancel) between advices.
            await nextTurn()
          }
          if (job.cancelled) throw new AdvicesCancelled()
        }
        try {
          await writeZipStreaming(path, files())
        } catch (error) {
          // writeZipStreaming removed the partial file: a cancelled ZIP leaves nothing behind.
          if (error instanceof AdvicesCancelled)
            return { fileName, path: null, printed: null, documents: 0, cancelled: true }
          if (error instanceof AppFailure) throw error
          throw new AppFailure('internal', `Could not write ${path}: ${(error as Error).message}`)
        } finally {
          renderer.close()
          making.delete(runId)
          progress(null)
        }
        return { fileName, path, printed: null, documents: advices.length }
      },
    },
  }
}

/** How often the ZIP of advices tells its progress. */
const PROGRESS_EVERY_MS = 200

class AdvicesCancelled extends Error {}

/** A file name not yet in the archive: two rows with one reference get "(2)". */
function uniqueName(taken: Set<string>, name: string): string {
  let candidate = name
  for (let n = 2; taken.has(candidate); n++) candidate = name.replace(/\.pdf$/, ` (${n}).pdf`)
  taken.add(candidate)
  return candidate
}
