/**
 * Why a workbook cannot be read. On its own so that reading a CSV (the check-sheet command, the
 * import worker) never loads SheetJS just to know this class.
 */
export class WorkbookReadError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message)
  }
}
