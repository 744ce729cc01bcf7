/**
 * Bulk payouts from spreadsheets: what the importer produces (the shape `check-sheet --json`
 * prints, decision 36) and what a run works on. The importer (shared/bulk and
 * electron/main/services/bulk/import) fills these; the run (electron/main/services/bulk/run) reads them.
 */

import { PAYOUT_ROW_FIELDS, PAYOUT_ROW_VALUE_FIELDS } from './payout-row'
import type { PayoutRowField, PayoutRowValues } from './payout-row'

/**
 * The fields a sheet's columns map to: a payout row's (payout-row.ts), and the optional payee id
 * (an employee number, a vendor code: who the payment is for, decision 108). The payee id is not
 * sent to the service; the payee book and its tripwires read it.
 */
export const BULK_FIELDS = [...PAYOUT_ROW_FIELDS, 'payee_id'] as const
export type BulkField = PayoutRowField | 'payee_id'
/** Every field but the reference, which is made for a sheet that has none. */
export const REQUIRED_BULK_FIELDS: readonly BulkField[] = PAYOUT_ROW_VALUE_FIELDS

/**
 * Fields a run may give one value for (decision 53): most payroll and vendor sheets have no e-mail
 * column, many no narration. Such a field needs a column or a run-wide value; where both are
 * given, a row's own non-empty cell overrides the run-wide value.
 */
export const RUN_WIDE_FIELDS = ['customer_email', 'narration'] as const
export type RunWideField = (typeof RUN_WIDE_FIELDS)[number]
export type RunWideValues = Partial<Record<RunWideField, string>>

/** The run-wide values an import used, and how many rows took each (the others had their own cell). */
export type RunWideRecord = Partial<Record<RunWideField, { value: string; rows: number }>>

export const BULK_CURRENCIES = ['NGN', 'KES'] as const
export type BulkCurrency = (typeof BULK_CURRENCIES)[number]

/** One data row as read: trimmed text; `amount` as a plain decimal with two places when it parses. */
export interface BulkItem extends PayoutRowValues {
  /** The spreadsheet's row number (CSV: the line number, counting header and blank lines). */
  row: number
  /** Where the bank cell held a name, not a code: the name and the bank it was matched to (decision 33). */
  bank_match?: BankMatchRecord
  /**
   * The account number as read from a number cell (or, in a CSV, a number as Excel writes one),
   * when it was (decision 54): its finding holds while the account is still this text.
   */
  account_from_number?: string
  /** The sheet's payee id (employee number, vendor code), as text, when the sheet has one. */
  payee_id?: string
}

/**
 * How a bank name in a sheet became a code. exact: the list's name or slug, give or take case,
 * punctuation and words such as "PLC" or "Bank"; alias: a known short form ("GTB");
 * remembered: what this profile confirmed before; chosen: picked by hand in the Banks step.
 */
export interface BankMatchRecord {
  /** The cell's text. */
  from: string
  code: string
  /** The bank's name in the service's list. */
  name: string
  how: 'exact' | 'alias' | 'remembered' | 'chosen'
}

export interface BulkFinding {
  row: number
  /** A field name, or null for a finding about the whole row. */
  column: BulkField | null
  code: string
  message: string
  /** A bank name that could not be matched by itself: the banks it may be (empty when none). */
  candidates?: Array<{ code: string; name: string }>
}

/** A row of the sheet that is not a payout and was left out, and why (decision 34). */
export interface SkippedRow {
  row: number
  /** totals: the sheet's own total (its figure is the control total); notes: text below the data. */
  why: 'totals' | 'notes'
}

/** The sheet's own total against the sum of its payout rows, as exact decimals ("5660100.00"). */
export interface ControlTotal {
  sheet: string
  computed: string
  match: boolean
}

export interface BulkHeader {
  /** The spreadsheet row number of the header. */
  row: number
  /** Header text as in the file -> field. */
  columns: Record<string, BulkField>
}

export interface BulkImportResult {
  file: string
  sheet: string
  header: BulkHeader
  rows: number
  valid: number
  items: BulkItem[]
  errors: BulkFinding[]
  warnings: BulkFinding[]
  /**
   * Rows left out because they are not payouts: totals and notes below the data. Always given by
   * an import; a result made from a run's rows (a retry) has none.
   */
  skipped?: SkippedRow[]
  /** Present when the sheet has a totals row. */
  control_total?: ControlTotal
  /** The run-wide e-mail and narration given for the import, when any (decision 53). */
  run_wide?: RunWideRecord
}

export interface BulkFileError {
  file: string
  fileError: { code: string; message: string }
}

// ---- Additions for the import steps (Sheet, Header row, Columns) and the service API. ----

/** Column mapping by column position (0-based): the field a column feeds, or null when ignored. */
export type BulkColumnMapping = ReadonlyArray<BulkField | null>

/** One row of the sheet as the steps show it: the spreadsheet row number and its cells as text. */
export interface BulkPreviewRow {
  row: number
  cells: string[]
}

/** One column under a chosen header row: its header text, its field, and a few sample values. */
export interface BulkColumn {
  index: number
  header: string
  field: BulkField | null
  samples: string[]
}

export interface BulkSheetSummary {
  name: string
  /** Non-empty rows in the sheet (header and titles included). */
  rows: number
  columns: number
  /** The sheet has a header row naming at least three payout fields. */
  looksLikePayouts: boolean
  /** The header row found automatically, or null. */
  headerRow: number | null
  /** The first non-empty rows (at most 30), for the Header row step. */
  preview: BulkPreviewRow[]
  /** The mapping to propose for the detected header: remembered for this layout, else automatic. */
  mapping: BulkColumnMapping | null
  /** True when `mapping` was remembered from an earlier confirmed import of this header layout. */
  mappingRemembered: boolean
  /** Why the sheet cannot be imported (too many rows or columns), when it cannot. */
  problem?: string
  /** The currency the sheet itself points to, and why (decision 55); null when it says nothing. */
  currency: CurrencyGuess | null
}

/** What a sheet says about its currency: a "Currency: KES" cell, its banks, its amounts. */
export interface CurrencyGuess {
  currency: BulkCurrency
  /** In words, for the Columns step: "a cell says Currency: KES", "all 12 bank names are Kenyan banks". */
  because: string[]
  /** What points the other way, when anything does ("2 bank names are Nigerian banks"). */
  against: string[]
}

export interface BulkWorkbookSummary {
  file: string
  kind: 'xlsx' | 'xls' | 'csv'
  /** SHA-256 of the file's bytes (hex). */
  sha256: string
  sheets: BulkSheetSummary[]
  /** The sheet to preselect: the first that looks like payouts, else the first. */
  selectedSheet: string
}

export interface BulkImportOptions {
  sheet?: string
  /** Spreadsheet row number of the header; detected when absent. */
  headerRow?: number
  /** Confirmed mapping by column position; remembered-or-automatic when absent. */
  mapping?: BulkColumnMapping
  currency: BulkCurrency
  /** The bank list of the currency's country (from the lookups API); the bundled list when absent. */
  banks?: ReadonlyArray<{ code: string; name: string; slug: string }>
  /** Bank texts this profile confirmed before: [bankTextKey(text), code]. */
  rememberedBanks?: ReadonlyArray<readonly [string, string]>
  /** One e-mail and one narration for the rows that have none (decision 53). */
  runWide?: RunWideValues
}

export type BulkImportProgress = { phase: 'reading' } | { phase: 'validating'; done: number; total: number }

/** A payout the journal says was already sent, for the "already paid" warning (decision 39). */
export interface PriorPayout {
  reference: string
  bank_code: string
  account_number: string
  /** Two-decimal plain string, e.g. "1500.00". */
  amount: string
  /** When it was sent (ISO 8601). */
  sentAt: string
  /** The run's name when it was part of a run. */
  runLabel?: string
}

// ---- Bank names (decision 33): the Banks step between the import and the run. ----

/** One distinct bank text of a sheet as the Banks step shows it ("GTBank → Guaranty Trust Bank (058), 14 rows"). */
export interface BankNameProposal {
  /** The text as it first appears in the sheet. */
  text: string
  /** bankTextKey(text): texts with the same key ("GT Bank", "gtbank") are one value. */
  key: string
  rows: number
  how: 'exact' | 'alias' | 'remembered' | 'suggestion' | 'ambiguous' | 'unknown'
  /** The bank it matches: exact, alias, remembered. */
  bank?: { code: string; name: string }
  /** The banks it may be: suggestion, ambiguous (none when unknown). */
  candidates: Array<{ code: string; name: string }>
}

/** What the Banks step needs: the bank texts of the sheet, and every bank of the list for a choice by hand. */
export interface BulkBankReview {
  importId: string
  country: 'NG' | 'KE'
  /** Rows read from the sheet (the payout rows, without totals and notes). */
  rows: number
  names: BankNameProposal[]
  banks: Array<{ code: string; name: string }>
}

/** The bank a user confirmed (or chose) for a bank text, by its key. */
export interface BankChoiceByKey {
  key: string
  code: string
}

/**
 * What an import records in its run (decisions 33, 34): rows left out and why, the control total,
 * and each bank name of the sheet with the bank it became.
 */
export interface ImportRecord {
  skipped: SkippedRow[]
  control_total?: ControlTotal
  bank_names: Array<BankMatchRecord & { rows: number }>
  /** The run-wide e-mail and narration, and how many rows took each (decision 53). */
  run_wide?: RunWideRecord
}
