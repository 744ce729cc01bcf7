/** The bulk channels, served from the services of this folder. */
import { randomBytes } from 'node:crypto'
import { basename, join } from 'node:path'
import { existsSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { setImmediate as nextTurn } from 'node:timers/promises'
import { isFileError } from '../../../../shared/bulk/import-rows'
import type { RunView } from '../../../../shared/domain/bulk-run'
import { bundledBanks } from '../../../../shared/banks/bank-list'
import { applyBankChoices, bankNameProposals } from '../../../../shared/bulk/bank-choices'
import { COUNTRY_OF_CURRENCY } from '../../../../shared/bulk/banks'
import type { BulkCurrency, BulkImportResult, BulkWorkbookSummary, PriorPayout } from '../../../../shared/domain/bulk'
import { alreadyPaidWarnings } from '../../../../shared/bulk/journal-match'
import { journalPriorPayouts } from './prior-payouts'
import type { ProfileMode } from '../../../../shared/domain/profiles'
import { MODE_NAMES } from '../../../../shared/words/profile-modes'
import type { ExportResult } from '../../../../shared/domain/export'
import type { Bank } from '../../../../shared/domain/lookups'
import type { BulkImportAnswer, BulkOpened } from '../../../../shared/ipc/channels/bulk'
import type { bulkChannels } from '../../../../shared/ipc/channels/bulk'
import { AppFailure } from '../../../../shared/result'
import type { DomainService } from '../domain-service'
import { InFlight } from '../sending'
import type { ServiceContext } from '../service-context'
import { lookupCacheOf } from '../lookups'
import { BankNameMemory } from './import/bank-name-memory'
import { RunWideMemory } from './import/run-wide-memory'
import { createBulkImportService } from './import/import-service'
import { saveTemplate } from './import/save-template'
import { bulkBatchVerifier } from './run/batch-sender'
import { exportTableWithDialog, tableToCsv } from '../export'
import { evidencePack, reportTable } from './run/run-report'
import { RunService } from './run/run-service'
import { FeePayerMemory } from '../fees'
import { RUNS_FOLDER, RunStore } from './run/run-store'
import type { RunHooks } from './run-hooks'

/** What the importer opens, chosen with Open or dropped. */
const SHEET_FILES = [{ name: 'Spreadsheets', extensions: ['xlsx', 'xls', 'csv'] }]
/**
 * Different bank names one sheet may ask the user about. A payroll names a few dozen banks; more is
 * a column of something else mapped to the bank (a Banks step of thousands could not be worked).
 */
const MAX_BANK_NAMES = 300

/** An import waiting for its Banks step: the result as read, and what it was read with. */
interface PendingBanks {
  result: BulkImportResult
  currency: BulkCurrency
  profileId: string
  mode: ProfileMode
  banks: Bank[]
}

export interface BulkDomainOptions extends RunHooks {
  /** How often monitoring asks the service about open batches. */
  pollMs?: number
}

export function createBulkRunService(context: ServiceContext, options: BulkDomainOptions = {}): RunService {
  return new RunService({
    store: new RunStore(join(context.userDataDir, RUNS_FOLDER)),
    journal: context.journal,
    apiFor: async (profileId) => {
      const { api, mode, profileId: id } = await context.apiFor(profileId)
      return { profileId: id, mode, bulk: api.bulk, lookups: api.lookups }
    },
    events: {
      runChanged: (summary) => context.emit('bulk:runChanged', summary),
      rowsChanged: (runId, rows) => context.emit('bulk:rowsChanged', { runId, rows }),
      progress: (runId, progress) => context.emit('bulk:progress', { runId, progress }),
    },
    notify: (notice) => context.desktop.notifier.notify(notice),
    now: () => context.now(),
    log: context.log,
    ...(context.checkpoint ? { checkpoint: context.checkpoint } : {}),
    ...(options.pollMs ? { pollMs: options.pollMs } : {}),
    feePayer: new FeePayerMemory(context.userDataDir),
    ...(options.beforeBatchLeaves ? { beforeBatchLeaves: options.beforeBatchLeaves } : {}),
    ...(options.holdOnResume ? { holdOnResume: options.holdOnResume } : {}),
  })
}

export interface BulkDomain extends DomainService<keyof typeof bulkChannels> {
  /** The runs, once loaded: for other domains that read them (the run documents). */
  loadedRuns(): Promise<RunService>
}

export function createBulkDomain(context: ServiceContext, options: BulkDomainOptions = {}): BulkDomain {
  const runs = createBulkRunService(context, { pollMs: 1000, ...options })
  const edited = <T>(runId: string, answer: T): T => (options.runEdited?.(runId), answer)
  /**
   * The import's rows warned about when they match a payout sent before ("already paid in the
   * March run") by this profile, in its mode: a Sandbox rehearsal never leaves a Live row out.
   */
  async function withAlreadyPaid(
    result: BulkImportResult,
    scope: { profileId: string; mode: ProfileMode },
  ): Promise<BulkImportResult> {
    // This desk's journal, and in team mode what every desk of the team sent.
    const label = (runId: string): string | undefined => {
      try {
        return runs.stateOf(runId).fileName
      } catch {
        return undefined
      }
    }
    const prior: PriorPayout[] = journalPriorPayouts(context.journal, label, scope)
    try {
      if (options.priorPayouts) prior.push(...(await options.priorPayouts(scope)))
    } catch (error) {
      context.log.warn("The team's payouts could not be read; only this desk's were checked for already paid", error)
    }
    const found = alreadyPaidWarnings(result.items, prior, context.now())
    return found.length === 0 ? result : { ...result, warnings: [...result.warnings, ...found] }
  }
  // A batch the service never received is sent again by its run when runs resume, same references.
  const runsFolder = join(context.userDataDir, RUNS_FOLDER)
  context.reconciler.register(
    'bulk_batch',
    bulkBatchVerifier(async (profileId) => (await context.apiFor(profileId)).api.bulk),
    (movement) =>
      movement.runId && existsSync(join(runsFolder, movement.runId, 'state.json')) ? 'sent_again' : undefined,
  )
  // Runs are loaded and resumed only once the domain starts, after start-up reconciliation: a
  // run resumed earlier would send while the reconciler verifies the same batches, and a finding
  // of the reconciler made before an acceptance could land after it. Every channel waits for that.
  let started: () => void = () => undefined
  const startedUp = new Promise<void>((resolve) => (started = resolve))
  let loaded: Promise<void> | null = null
  const ready = () => (loaded ??= startedUp.then(() => runs.resumeAll()))

  /** The report as XLSX or CSV through the export writer every screen uses (Summary sheet, injection neutralised). */
  async function saveReport(runId: string, format: 'xlsx' | 'csv'): Promise<ExportResult> {
    await ready()
    const table = reportTable(
      runs.stateOf(runId),
      runs.rows(runId),
      await runs.changeLog(runId),
      await runs.earlierChanges(runId),
    )
    const result = await exportTableWithDialog(context, table, format)
    // The report is kept with the run too.
    if (result.path) await runs.keepReport(runId, tableToCsv(table).data)
    return result
  }

  /** One ZIP an auditor can check: the run's files and a manifest of their SHA-256 sums. */
  async function saveEvidence(runId: string): Promise<ExportResult> {
    await ready()
    const state = runs.stateOf(runId)
    const rows = runs.rows(runId)
    const path = await context.desktop.dialogs.chooseSavePath({
      title: 'Save the evidence pack',
      defaultName: `${state.id}-evidence.zip`,
      filters: [{ name: 'ZIP archive', extensions: ['zip'] }],
    })
    if (!path) return { path: null, rows: 0 }
    const changes = await runs.changeLog(runId)
    const earlierChanges = await runs.earlierChanges(runId)
    const table = reportTable(state, rows, changes, earlierChanges)
    const view = runs.view(runId)
    const bytes = evidencePack({
      state,
      rows,
      changes,
      earlierChanges,
      figures: {
        currency: view.currency,
        tally: view.tally,
        sheetStatus: view.sheetStatus,
        outcome: view.outcome,
        fees: view.fees,
      },
      original: await runs.originalFile(runId),
      journal: context.journal.list({ runId }),
      reportCsv: tableToCsv(table).data,
    })
    try {
      await writeFile(path, bytes)
    } catch (error) {
      throw new AppFailure('internal', `Could not write ${path}: ${(error as Error).message}`)
    }
    return { path, rows: rows.length }
  }

  // Files opened or dropped, held until they are imported (or the app quits). An import waiting
  // for its Banks step keeps its result here, so confirming never reads the file again.
  const imports = createBulkImportService(context.userDataDir)
  const bankMemory = new BankNameMemory(context.userDataDir)
  const runWideMemory = new RunWideMemory(context.userDataDir)
  const opened = new Map<
    string,
    { name: string; bytes: Uint8Array; summary: BulkWorkbookSummary; pending?: PendingBanks }
  >()
  // One import makes one run: a second Import or Confirm of the same opened file (a double click,
  // or a click once the first is done) joins the first or is answered with the run it made.
  const importing = new InFlight<BulkImportAnswer>()
  const confirming = new InFlight<RunView>()
  // A second Delete of the same run (a double click) joins the first.
  const removing = new InFlight<{ deleted: string }>()
  /** The run each import made, by import id (a few kept, like the open files). */
  const imported = new Map<string, string>()

  /**
   * A run is sent under its own profile's banner (decision 49): while the desk works with another
   * profile, Send is refused and says which profile the run belongs to.
   */
  async function assertUnderItsProfile(runId: string): Promise<void> {
    const state = runs.stateOf(runId)
    const active = await context.profiles.list()
    if (active.activeId === state.profileId) return
    const owner = active.profiles.find((profile) => profile.id === state.profileId)
    const current = active.profiles.find((profile) => profile.id === active.activeId)
    throw new AppFailure(
      'conflict',
      `This run belongs to the profile ${owner ? `"${owner.name}"` : state.profileId} (${MODE_NAMES[state.mode]}), and the desk now works with ${current ? `"${current.name}" (${MODE_NAMES[current.mode]})` : 'another profile'}: open the run again to switch to its profile, then send it.`,
      { profileId: state.profileId, mode: state.mode },
    )
  }

  /** The country's banks from the service (cached per profile); the bundled list when it cannot be reached. */
  async function banksFor(country: 'NG' | 'KE', profileId: string): Promise<Bank[]> {
    try {
      const listed = await lookupCacheOf(context).banks(country, { profileId })
      if (listed.length > 0) return listed
    } catch (error) {
      context.log.warn(`The ${country} bank list could not be read; the bundled list is used`, error)
    }
    return [...bundledBanks(country)]
  }

  async function inspect(name: string, bytes: Uint8Array): Promise<BulkOpened> {
    const summary = await imports.inspectWorkbook({ name, bytes })
    if (isFileError(summary)) throw new AppFailure('bad_request', `${summary.file}: ${summary.fileError.message}`)
    const importId = randomBytes(16).toString('hex')
    // Only the latest few files are kept in memory.
    if (opened.size >= 4) opened.delete(opened.keys().next().value!)
    if (imported.size >= 16) imported.delete(imported.keys().next().value!)
    opened.set(importId, { name, bytes, summary })
    // The e-mail this profile gave for a whole run last time, proposed again (decision 53).
    let rememberedEmail: string | undefined
    try {
      rememberedEmail = await runWideMemory.recallEmail((await context.apiFor()).profileId)
    } catch (error) {
      context.log.warn('The run-wide e-mail of this profile could not be read', error)
    }
    return { importId, summary, ...(rememberedEmail ? { rememberedEmail } : {}) }
  }

  /** A sheet chosen with Open or dropped, read from where it is. */
  async function inspectFile(path: string): Promise<BulkOpened> {
    let bytes: Uint8Array
    try {
      bytes = await readFile(path)
    } catch (error) {
      throw new AppFailure('bad_request', `${basename(path)} could not be read: ${(error as Error).message}`)
    }
    return inspect(basename(path), bytes)
  }

  return {
    handlers: {
      'bulk:open': async () => {
        const path = await context.desktop.dialogs.chooseOpenPath({
          title: 'Open a payout sheet',
          filters: SHEET_FILES,
        })
        return path ? inspectFile(path) : null
      },
      'bulk:drop': async ({ file }) => inspectFile(await context.desktop.files.pathOf(file, SHEET_FILES)),
      'bulk:import': ({ importId, sheet, headerRow, mapping, currency, runWide }) =>
        importing.run(importId, async (): Promise<BulkImportAnswer> => {
          await ready()
          const made = imported.get(importId)
          if (made) return { kind: 'run', run: runs.view(made) }
          const file = opened.get(importId)
          if (!file) throw new AppFailure('not_found', 'This file is no longer open; open it again.')
          const { profileId, mode } = await context.apiFor()
          const country = COUNTRY_OF_CURRENCY[currency]
          const banks = await banksFor(country, profileId)
          const result = await imports.importSheet(
            { name: file.name, bytes: file.bytes },
            {
              sheet,
              headerRow,
              mapping,
              currency,
              banks,
              rememberedBanks: await bankMemory.recall(profileId, country),
              ...(runWide ? { runWide } : {}),
            },
          )
          if (isFileError(result)) throw new AppFailure('bad_request', `${result.file}: ${result.fileError.message}`)
          context.checkpoint?.('import:sheet-read')
          const email = result.run_wide?.customer_email?.value
          if (email)
            await runWideMemory
              .rememberEmail(profileId, email)
              .catch((error: unknown) => context.log.warn('The run-wide e-mail could not be remembered', error))
          // The confirmed mapping is remembered for this header layout, and applied next time.
          const headers = file.summary.sheets
            .find((s) => s.name === sheet)
            ?.preview.find((r) => r.row === headerRow)?.cells
          if (headers) await imports.rememberMapping(headers, mapping)
          const names = await bankNameProposals(result, nextTurn)
          if (names.length > MAX_BANK_NAMES)
            throw new AppFailure(
              'bad_request',
              `The bank column holds ${names.length.toLocaleString('en-US')} different values that are not bank codes (for example "${names[0]!.text.slice(0, 60)}"): is the right column mapped to the bank?`,
            )
          if (names.length > 0) {
            // Bank names: the user confirms or chooses each before the run exists.
            file.pending = { result, currency, profileId, mode, banks }
            const choices = banks.map((bank) => ({ code: bank.code, name: bank.name }))
            return { kind: 'banks', review: { importId, country, rows: result.rows, names, banks: choices } }
          }
          const run = await runs.create({
            result: await withAlreadyPaid(result, { profileId, mode }),
            bytes: file.bytes,
            currency,
            profileId,
          })
          opened.delete(importId)
          imported.set(importId, run.id)
          return { kind: 'run', run }
        }),
      'bulk:confirmBanks': ({ importId, choices }) =>
        confirming.run(importId, async () => {
          await ready()
          const made = imported.get(importId)
          if (made) return runs.view(made)
          const file = opened.get(importId)
          const pending = file?.pending
          if (!file || !pending)
            throw new AppFailure('not_found', 'This import is no longer waiting for its banks; import the file again.')
          const listed = new Set(pending.banks.map((bank) => bank.code))
          const unlisted = choices.find((choice) => !listed.has(choice.code))
          if (unlisted) throw new AppFailure('bad_request', `Bank code ${unlisted.code} is not in the bank list.`)
          const result = await applyBankChoices(pending.result, choices, pending.banks, nextTurn, pending.currency)
          const run = await runs.create({
            result: await withAlreadyPaid(result, { profileId: pending.profileId, mode: pending.mode }),
            bytes: file.bytes,
            currency: pending.currency,
            profileId: pending.profileId,
          })
          opened.delete(importId)
          imported.set(importId, run.id)
          try {
            await bankMemory.remember(pending.profileId, COUNTRY_OF_CURRENCY[pending.currency], choices)
          } catch (error) {
            context.log.warn('The confirmed bank names could not be remembered', error)
          }
          return run
        }),
      'bulk:runs': async () => (await ready(), runs.list()),
      'bulk:run': async ({ runId }) => (await ready(), runs.view(runId)),
      'bulk:rows': async ({ runId, offset = 0, limit }) => {
        await ready()
        const rows = runs.rows(runId)
        return offset === 0 && limit === undefined
          ? rows
          : rows.slice(offset, limit === undefined ? undefined : offset + limit)
      },
      'bulk:resolve': async ({ runId }) => (await ready(), runs.startResolution(runId)),
      'bulk:cancel': async ({ runId }) => (await ready(), runs.cancel(runId)),
      'bulk:review': async ({ runId }) => (await ready(), runs.toReview(runId)),
      'bulk:editRow': async ({ runId, index, field, value }) => (
        await ready(),
        edited(runId, await runs.editRow(runId, index, field, value))
      ),
      'bulk:editCells': async ({ runId, kind, edits }) => (
        await ready(),
        edited(runId, await runs.editCells(runId, edits, kind))
      ),
      'bulk:undo': async ({ runId }) => (await ready(), edited(runId, await runs.undo(runId))),
      'bulk:redo': async ({ runId }) => (await ready(), edited(runId, await runs.redo(runId))),
      'bulk:changes': async ({ runId, limit = 200 }) => (await ready(), runs.changes(runId, limit)),
      'bulk:delete': ({ runId }) => removing.run(runId, async () => (await ready(), runs.remove(runId))),
      'bulk:archive': async ({ runId, archived }) => (await ready(), runs.archive(runId, archived)),
      'bulk:saveTemplate': ({ format }) => saveTemplate(context, format),
      'bulk:exclude': async ({ runId, indexes, excluded }) => (
        await ready(),
        edited(runId, await runs.setExcluded(runId, indexes, excluded))
      ),
      'bulk:answerQuestion': async ({ runId, indexes, question }) => (
        await ready(),
        edited(runId, await runs.answerQuestion(runId, indexes, question))
      ),
      'bulk:setOptions': async ({ runId, ...rest }) => (
        await ready(),
        edited(runId, await runs.setOptions(runId, rest))
      ),
      // An acknowledgement changes the review an approver sees: in team mode it is shared as a new version.
      'bulk:acknowledgeNames': async ({ runId, indexes }) => (
        await ready(),
        edited(runId, await runs.acknowledgeNames(runId, indexes))
      ),
      // A person's Send: the run's own profile must be the desk's (its banner on screen), and every
      // row to send has its name checked and every no-match name acknowledged (decisions 49, 50).
      'bulk:submit': async ({ runId, confirmTotal }) => {
        await ready()
        await assertUnderItsProfile(runId)
        return runs.submit(runId, confirmTotal === undefined ? {} : { total: confirmTotal }, { namesChecked: true })
      },
      'bulk:recheck': async ({ runId }) => (await ready(), runs.recheck(runId)),
      'bulk:retryFailed': async ({ runId, leftOutByHand, withErrors }) => (
        await ready(),
        runs.retryFailed(runId, { leftOutByHand: leftOutByHand === true, withErrors: withErrors === true })
      ),
      'bulk:exportReport': ({ runId, format }) => saveReport(runId, format),
      'bulk:exportEvidence': ({ runId }) => saveEvidence(runId),
    },
    loadedRuns: async () => (await ready(), runs),
    start: () => {
      started()
      void ready().catch((error: unknown) => context.log.error('Bulk runs could not be resumed', error))
    },
    close: () => runs.close(),
  }
}
