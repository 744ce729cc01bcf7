/**
 * Changes to a run's rows before it is sent (decision 40): cells typed, pasted, filled down or
 * replaced, banks chosen by name, rows excluded, and the undo and redo of each. A change is made to
 * the rows in place (by index; the run's array of rows is never copied), each changed row is
 * checked again at once, the change is written to the run's log (run-changes.ts), and the answer
 * carries only the rows that changed.
 */
import { bundledBanks } from '../../../../../shared/banks/bank-list'
import { BankMatcher } from '../../../../../shared/banks/match-bank'
import { cleanedAccountNumber } from '../../../../../shared/bulk/account-number'
import { normaliseAmount } from '../../../../../shared/bulk/amount'
import { COUNTRY_OF_CURRENCY } from '../../../../../shared/bulk/banks'
import type { BulkCurrency, BulkField } from '../../../../../shared/domain/bulk'
import { BULK_FIELDS } from '../../../../../shared/domain/bulk'
import type {
  CellEdit,
  CellEditKind,
  ChangedCell,
  ChangedColumn,
  RunChangesView,
  RunEditAnswer,
} from '../../../../../shared/domain/bulk-changes'
import type { RunRow } from '../../../../../shared/domain/bulk-run'
import { AppFailure } from '../../../../../shared/result'
import { RunChanges } from './run-changes'

/** What the editor needs of its run (RunService gives it). */
export interface EditHost {
  readonly runId: string
  readonly rows: RunRow[]
  readonly currency: BulkCurrency
  /** The run's folder, where changes.json is kept. */
  readonly folder: string
  now(): Date
  /** Checks a row again after a change (the row rules and the name check's findings). */
  revalidate(row: RunRow): void
  /** Checks the account names of rows whose account changed. */
  resolve(rows: RunRow[]): Promise<void>
  /** A row changed: its event goes to the screen, rows.json is written again. */
  rowChanged(row: RunRow): void
  /**
   * Rows are about to change in this task. Refused when the run takes no change now: a change
   * that waited behind another (a paste still being saved) may find the run sent meanwhile. Else
   * the run's rowsVersion moves now, though the rows are told (rowChanged) only once the change is
   * logged and its names checked: Send's gate counts the rows over turns (decision 183).
   */
  changing(): void
  /** rows.json now, and the run's summary to the screen. */
  saved(): Promise<void>
}

/** Name checks made at once after a change; rows past these wait for "Check them" (decision 50). */
const RESOLVE_AT_ONCE = 20

const ACCOUNT_FIELDS: ReadonlySet<ChangedColumn> = new Set(['bank_code', 'account_number', 'customer_name'])
/** What a row's answered questions were about (decision 57): a change asks them again. */
/** Fields that say who the payee is, besides the name (decision 108). */
const PAYEE_FIELDS: ReadonlySet<ChangedColumn> = new Set(['payee_id', 'customer_email'])
const ANSWERED_FIELDS: ReadonlySet<ChangedColumn> = new Set(['bank_code', 'account_number', 'amount'])

export class RunEditor {
  private changes: Promise<RunChanges> | null = null
  private queue: Promise<unknown> = Promise.resolve()
  private matcher: BankMatcher | null = null

  constructor(private readonly host: EditHost) {}

  /** Cells as the grid asks; values already so are no change. */
  editCells(edits: readonly CellEdit[], kind: CellEditKind): Promise<RunEditAnswer> {
    return this.serial(async () => {
      const cells: ChangedCell[] = []
      let byName = false
      for (const edit of edits) {
        const row = this.rowAt(edit.index)
        if (!(BULK_FIELDS as readonly string[]).includes(edit.field))
          throw new AppFailure('bad_request', `Unknown column ${edit.field}.`)
        const { value, from } = this.normalised(edit.field, edit.value)
        const before = row.item[edit.field] ?? ''
        if (before === value) continue
        cells.push({
          index: row.index,
          row: row.item.row,
          column: edit.field,
          before,
          after: value,
          ...(from ? { from } : {}),
        })
        byName ||= from !== undefined
      }
      // A bank chosen by name in a single edit is a bank choice; in a paste or fill it stays what it was.
      return this.apply(kind === 'edit' && byName ? 'bank' : kind, cells)
    })
  }

  /** Rows left out of (or back into) the run. */
  setExcluded(indexes: readonly number[], excluded: boolean): Promise<RunEditAnswer> {
    return this.serial(async () => {
      const after = excludedText(excluded)
      const cells: ChangedCell[] = []
      for (const index of new Set(indexes)) {
        const row = this.rowAt(index)
        const before = excludedText(row.excluded)
        if (before !== after) cells.push({ index, row: row.item.row, column: 'excluded', before, after })
      }
      return this.apply('exclude', cells)
    })
  }

  /** Undoes the last change not undone; nothing to undo answers no change. */
  undo(): Promise<RunEditAnswer> {
    return this.serial(async () => {
      const changes = await this.loaded()
      const last = changes.nextUndo()
      if (!last) return this.answer(changes, [], null)
      // Back to what each cell held; the bank name a choice came from is the choice's, not the undo's.
      const back = last.cells.map(({ from: _from, ...cell }) => ({ ...cell, before: cell.after, after: cell.before }))
      return this.apply('undo', back.reverse(), last.seq)
    })
  }

  redo(): Promise<RunEditAnswer> {
    return this.serial(async () => {
      const changes = await this.loaded()
      const next = changes.nextRedo()
      if (!next) return this.answer(changes, [], null)
      return this.apply('redo', next.cells, next.seq)
    })
  }

  async view(limit: number): Promise<RunChangesView> {
    return (await this.loaded()).view(limit)
  }

  /** Every change, oldest first (report, evidence pack). */
  async log(): Promise<RunChangesView['changes']> {
    return [...(await this.loaded()).log]
  }

  /** Sets each cell to its `after`, checks the rows again, logs the change, writes it all. */
  private async apply(
    kind: Parameters<RunChanges['record']>[0],
    cells: ChangedCell[],
    of?: number,
  ): Promise<RunEditAnswer> {
    const changes = await this.loaded()
    if (cells.length === 0) return this.answer(changes, [], null)
    const changed = new Map<number, RunRow>()
    this.host.changing()
    for (const cell of cells) {
      const row = this.rowAt(cell.index)
      if (cell.column === 'excluded') {
        row.excluded = cell.after === 'excluded'
        // Left out by hand (the review counts rows left out by their reason).
        if (row.excluded) row.excludedWhy = 'by_hand'
        else delete row.excludedWhy
      } else {
        row.item = { ...row.item, [cell.column]: cell.after }
        if (ANSWERED_FIELDS.has(cell.column)) delete row.answered
        // A confirmation was of this payee's use of this account (decision 124): the run keeps it, the row no more.
        if (ACCOUNT_FIELDS.has(cell.column) || PAYEE_FIELDS.has(cell.column)) delete row.confirmation
        if (ACCOUNT_FIELDS.has(cell.column)) {
          row.resolution = 'unchecked'
          delete row.resolvedName
          delete row.resolutionMessage
          delete row.nameCheck
          // An acknowledgement was of the names as they were.
          delete row.acknowledged
        }
      }
      changed.set(row.index, row)
    }
    for (const row of changed.values()) this.host.revalidate(row)
    const group = changes.record(kind, cells, this.host.now().toISOString(), of)
    // The log first: a change on screen is a change in the log, even if the name checks fail.
    await changes.save()
    // Every changed row that can be sent and has no name check is checked now: an account changed,
    // a row fixed that was in error when the names were checked, a row included again (decision
    // 50). More than a few wait for "Check them", and Send is refused until they are checked.
    const toCheck = [...changed.values()].filter(
      (row) => !row.excluded && row.errors.length === 0 && row.resolution === 'unchecked',
    )
    if (toCheck.length > 0 && toCheck.length <= RESOLVE_AT_ONCE) await this.host.resolve(toCheck)
    for (const row of changed.values()) this.host.rowChanged(row)
    await this.host.saved()
    return this.answer(changes, [...changed.values()], group)
  }

  private answer(changes: RunChanges, rows: RunRow[], change: RunEditAnswer['change']): RunEditAnswer {
    return { rows, canUndo: changes.canUndo, canRedo: changes.canRedo, change }
  }

  /** The value as kept: amounts normalised as the importer does, banks named turned into their code. */
  private normalised(field: BulkField, value: string): { value: string; from?: string } {
    const text = value.trim()
    if (field === 'amount') return { value: normaliseAmount(text, this.host.currency) ?? text }
    // Spaces and dashes inside an account number typed or pasted are dropped, as at import (decision 54).
    if (field === 'account_number') return { value: cleanedAccountNumber(text) ?? text }
    if (field !== 'bank_code' || text === '' || /^\d+$/.test(text)) return { value: text }
    const matcher = (this.matcher ??= new BankMatcher(
      bundledBanks(COUNTRY_OF_CURRENCY[this.host.currency]),
      COUNTRY_OF_CURRENCY[this.host.currency],
    ))
    // "Guaranty Trust Bank (058)", as the grid's bank list offers it.
    const chosen = /\((\d{2,12})\)\s*$/.exec(text)
    if (chosen && matcher.bankOf(chosen[1]!)) return { value: chosen[1]!, from: text }
    const match = matcher.match(text)
    if (match.kind === 'exact' || match.kind === 'alias') return { value: match.bank.code, from: text }
    return { value: text }
  }

  private rowAt(index: number): RunRow {
    const row = this.host.rows[index]
    if (!row) throw new AppFailure('not_found', `Run ${this.host.runId} has no row ${index}.`)
    return row
  }

  private loaded(): Promise<RunChanges> {
    return (this.changes ??= RunChanges.load(this.host.folder).catch((error: unknown) => {
      this.changes = null
      throw error
    }))
  }

  /** One change at a time per run: a second (a double click, a fast undo) waits for the first. */
  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work)
    this.queue = next.catch(() => undefined)
    return next
  }
}

function excludedText(excluded: boolean): string {
  return excluded ? 'excluded' : 'included'
}
