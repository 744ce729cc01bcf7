/**
 * Text in SpreadsheetML, both ways. Written: &, < and > as entities; characters XML 1.0 cannot
 * hold (controls other than tab and line feed, U+FFFE, U+FFFF) and the carriage return (an XML
 * parser would turn it into a line feed) as Excel's _xHHHH_ escape; and an "_x" that reads like
 * such an escape has its underscore escaped (_x005F_), so reading back gives the same text.
 */

/* eslint-disable no-control-regex -- the control characters are exactly what these must find */
const NEEDS_ESCAPE = /[&<>\u0000-\u0008\u000b-\u001f\ufffe\uffff]|_x[0-9A-Fa-f]{4}_/
const ESCAPED = /[&<>\u0000-\u0008\u000b-\u001f\ufffe\uffff]|_(?=x[0-9A-Fa-f]{4}_)/g
const ATTRIBUTE_ESCAPED = /[&<>"\u0000-\u0008\u000b-\u001f\ufffe\uffff]/g
/** Plain text (the common case): nothing to escape, no space that matters. One test instead of two. */
const PLAIN =
  /^[^\s&<>_\u0000-\u001f\ufffe\uffff](?:[^&<>_\u0000-\u001f\ufffe\uffff]*[^\s&<>_\u0000-\u001f\ufffe\uffff])?$/
/* eslint-enable no-control-regex */

function escapeOne(char: string): string {
  switch (char) {
    case '&':
      return '&amp;'
    case '<':
      return '&lt;'
    case '>':
      return '&gt;'
    case '"':
      return '&quot;'
    default:
      return `_x${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}_`
  }
}

/** Element text. */
export function xmlText(text: string): string {
  return NEEDS_ESCAPE.test(text) ? text.replace(ESCAPED, escapeOne) : text
}

/** An attribute value in double quotes (sheet names, titles): no control characters survive. */
export function xmlAttribute(text: string): string {
  return text.replace(ATTRIBUTE_ESCAPED, (char) => ('&<>"'.includes(char) ? escapeOne(char) : ' '))
}

/** Whether a <t> needs xml:space="preserve" to keep its text exactly (edge spaces, tabs, lines). */
const SPACE_MATTERS = /^\s|\s$|[\t\n]/

export function inlineString(text: string): string {
  if (PLAIN.test(text)) return `<is><t>${text}</t></is>`
  return SPACE_MATTERS.test(text)
    ? `<is><t xml:space="preserve">${xmlText(text)}</t></is>`
    : `<is><t>${xmlText(text)}</t></is>`
}

const ENTITY = /&(?:(amp|lt|gt|quot|apos)|#([0-9]+)|#x([0-9A-Fa-f]+));/g
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }
const EXCEL_ESCAPE = /_x([0-9A-Fa-f]{4})_/g

function codePoint(value: number): string {
  return value <= 0x10ffff ? String.fromCodePoint(value) : '\ufffd'
}

/** Text read from an element: entities, then Excel's _xHHHH_ escapes. */
export function xmlUnescape(raw: string): string {
  const text =
    raw.indexOf('&') < 0
      ? raw
      : raw.replace(ENTITY, (_match, name: string | undefined, decimal: string | undefined, hex: string | undefined) =>
          name
            ? (NAMED[name] ?? '')
            : codePoint(decimal ? Number.parseInt(decimal, 10) : Number.parseInt(hex ?? '', 16)),
        )
  return text.indexOf('_x') < 0
    ? text
    : text.replace(EXCEL_ESCAPE, (_match, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
}
