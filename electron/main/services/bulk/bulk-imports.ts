/**
 * Importing a sheet as a bulk run: the file opened or dropped (held until it is imported), its
 * sheet read off main (import/import-service.ts), the Banks step when bank names need choosing,
 * and the run made from it with its already-paid warnings (this desk's journal, and what the
 * RunHooks' priorPayouts add: in team mode, every desk's payouts).
 */
import { randomBytes } from 'node:crypto'
import { basename } from 'node:path'
import { readFile } from 'node:fs/promises'
import { setImmediate as nextTurn } from 'node:timers/promises'
import { isFileError } from '../../../../shared/bulk/import-rows'
import type { RunView } from '../../../../shared/domain/bulk-run'
import { bundledBanks } from '../../../../shared/banks/bank-list'
import { applyBankChoices, bankNameProposals } from '../../../../shared/bulk/bank-choices'
import { COUNTRY_OF_CURRENCY } from '../../../../shared/bulk/banks'
import type { BulkCurrency, BulkImportResult, BulkWorkbookSummary, PriorPayout } from '../../../../shared/domain/bulk'
import { alreadyPaidWarningsInSlices } from '../../../../shared/bulk/journal-match'
import type { ProfileMode } from '../../../../shared/domain/profiles'
import type { Bank } from '../../../../shared/domain/lookups'
import type { BulkImportAnswer, BulkOpened } from '../../../../shared/ipc/channels/bulk'
import { AppFailure } from '../../../../shared/result'
import type { BulkHandlers } from './bulk-handlers'
import { InFlight } from '../sending'
import type { ServiceContext } from '../service-context'
import { lookupCacheOf } from '../lookups'
import { BankNameMemory } from './import/bank-name-memory'
import { RunWideMemory } from './import/run-wide-memory'
import { createBulkImportService } from './import/import-service'
import { journalPriorPayouts } from './prior-payouts'
import type { RunHooks } from './run-hooks'
import type { RunService } from './run/run-service'
import { sha256Hex } from './run/run-store'

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

/** The import channels, answered once the runs are ready (`ready`). */
export function bulkImportHandlers(
  context: ServiceContext,
  runs: RunService,
  hooks: Pick<RunHooks, 'priorPayouts'>,
  ready: () => Promise<void>,
): Pick<BulkHandlers, 'bulk:open' | 'bulk:drop' | 'bulk:import' | 'bulk:confirmBanks' | 'bulk:refreshRepeat'> {
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
      if (hooks.priorPayouts) prior.push(...(await hooks.priorPayouts(scope)))
    } catch (error) {
      context.log.warn("The team's payouts could not be read; only this desk's were checked for already paid", error)
    }
    const found = await alreadyPaidWarningsInSlices(result.items, prior, context.now(), nextTurn)
    return found.length === 0 ? result : { ...result, warnings: [...result.warnings, ...found] }
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
  const refreshing = new InFlight<RunView>()
  /** The run each import made, by import id (a few kept, like the open files). */
  const imported = new Map<string, string>()

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
    'bulk:refreshRepeat': ({ runId, importId, sheet, headerRow, mapping, currency, runWide }) =>
      refreshing.run(importId, async () => {
        await ready()
        const file = opened.get(importId)
        if (!file) throw new AppFailure('not_found', 'This file is no longer open; open it again.')
        const state = runs.stateOf(runId)
        if (currency !== state.currency)
          throw new AppFailure(
            'bad_request',
            `Run ${runId} pays ${state.currency}: read the sheet as ${state.currency} to refresh it (it was read as ${currency}).`,
          )
        const country = COUNTRY_OF_CURRENCY[state.currency]
        const result = await imports.importSheet(
          { name: file.name, bytes: file.bytes },
          {
            sheet,
            headerRow,
            mapping,
            currency,
            banks: await banksFor(country, state.profileId),
            rememberedBanks: await bankMemory.recall(state.profileId, country),
            ...(runWide ? { runWide } : {}),
          },
        )
        if (isFileError(result)) throw new AppFailure('bad_request', `${result.file}: ${result.fileError.message}`)
        const headers = file.summary.sheets
          .find((s) => s.name === sheet)
          ?.preview.find((r) => r.row === headerRow)?.cells
        if (headers) await imports.rememberMapping(headers, mapping)
        const names = await bankNameProposals(result, nextTurn)
        if (names.length > 0)
          throw new AppFailure(
            'bad_request',
            `${file.name} gives banks by name (for example "${names[0]!.text.slice(0, 60)}"): a refresh takes bank codes. Give the codes, or import the sheet as a new run to choose its banks.`,
          )
        const view = await runs.refreshRepeat(
          runId,
          { name: file.name, bytes: file.bytes, sha256: sha256Hex(file.bytes) },
          result,
        )
        opened.delete(importId)
        return view
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
  }
}
