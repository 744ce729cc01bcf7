/**
 * Formula injection (OWASP "CSV injection"): a spreadsheet runs a cell that starts with =, +, -, @,
 * tab or carriage return as a formula. Such text gets a leading single quote so it stays text. A
 * text that already starts with a quote gets one too, so that reading back (dropping one quote) is
 * exact for every text.
 */
const DANGEROUS_START = /^[=+\-@\t\r']/

export function neutraliseText(text: string): string {
  // The same test as DANGEROUS_START on the first character, without a regular expression: the
  // writers call this for every text cell.
  const first = text.charCodeAt(0)
  return first === 61 || first === 43 || first === 45 || first === 64 || first === 9 || first === 13 || first === 39
    ? `'${text}`
    : text
}

/** The original text of a cell written by neutraliseText. */
export function restoreText(text: string): string {
  return text.startsWith("'") && DANGEROUS_START.test(text.slice(1)) ? text.slice(1) : text
}
