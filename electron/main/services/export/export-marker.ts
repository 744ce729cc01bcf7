/**
 * How a file says it is a Payout Desk export, so offline review can recognise its own files.
 * XLSX: a hidden sheet "PayoutDesk" whose A1 is the marker text, with the format version, the
 * table title, the row count and the columns (key, header, kind). CSV has no room for a marker
 * that a spreadsheet user would not trip over, so a CSV is recognised by its header row: it must
 * be exactly the headers of a table offline review knows (see the history domain).
 */
export const EXPORT_MARKER = 'Payout Desk export'
/** 2: dates are date cells (Excel serials in UTC); 1 wrote them as ISO 8601 text. Both are read. */
export const EXPORT_FORMAT_VERSION = 2
export const MARKER_SHEET = 'PayoutDesk'
export const SUMMARY_SHEET = 'Summary'
