/**
 * Formula injection (OWASP "CSV injection"): a spreadsheet runs a cell that starts with =, +, -, @,
 * tab or carriage return as a formula. Such text gets a leading single quote so it stays text. A
 * text that already starts with a quote gets one too, so that reading back (dropping one quote) is
 * exact for every text.
 *
 * A CSV cell is also split by a spreadsheet that reads it with another separator (Excel in a `;`
 * locale splits `Salary;=1+1` into `Salary` and a formula), so in CSV a quote also goes after each
 * `;`, `,` or tab that stands right before a trigger (or a quote, for the same exact read-back).
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

/** A separator of some locale's CSV, right before a trigger character or a quote. */
const INNER_TRIGGER = /([;,\t])(?=[=+\-@\t\r'])/g
/** What neutraliseCsvText put inside a text: a quote after a separator, before a trigger or a quote. */
const INNER_QUOTE = /([;,\t])'(?=[=+\-@\t\r'])/g

/** A CSV cell's text: neutralised at its start, and after every separator another locale splits at. */
export function neutraliseCsvText(text: string): string {
  return neutraliseText(text.replace(INNER_TRIGGER, "$1'"))
}

/** The original text of a CSV cell written by neutraliseCsvText. */
export function restoreCsvText(text: string): string {
  return restoreText(text).replace(INNER_QUOTE, '$1')
}
