// Loaded with `node --require` into Electron's own installer (node_modules/electron/install.js) by
// scripts/electron-binary.mjs, to learn what the installer really did (decision 66): each URL it
// fetched, the answer's status and size, and the cause of a failed request, which install.js's own
// stack ("TypeError: fetch failed") leaves out. It only watches: every request and answer passes
// through unchanged. One JSON object a line, appended synchronously (install.js ends with
// process.exit) to the file named by PAYOUT_DESK_DOWNLOAD_REPORT.
'use strict'
const { appendFileSync } = require('node:fs')

const reportFile = process.env.PAYOUT_DESK_DOWNLOAD_REPORT
const originalFetch = globalThis.fetch

/** The innermost cause of a failed fetch in one line: "getaddrinfo ENOTFOUND github.com". */
function causeOf(error) {
  let current = error
  while (current && current.cause) current = current.cause
  if (current && Array.isArray(current.errors) && current.errors.length > 0 && !current.message) {
    current = current.errors[0]
  }
  const text = (current && (current.message || current.code)) || String(current)
  return text.split('\n')[0]
}

function report(event) {
  try {
    appendFileSync(reportFile, `${JSON.stringify(event)}\n`)
  } catch {
    // The report only explains; a failure to write it must not change what the installer does.
  }
}

if (reportFile && typeof originalFetch === 'function') {
  globalThis.fetch = async function reportedFetch(input, init) {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
    report({ event: 'request', url })
    try {
      const response = await originalFetch(input, init)
      const length = Number(response.headers.get('content-length'))
      report({
        event: 'response',
        url,
        status: response.status,
        statusText: response.statusText,
        ...(Number.isFinite(length) && length > 0 ? { length } : {}),
      })
      return response
    } catch (error) {
      report({ event: 'failed', url, cause: causeOf(error) })
      throw error
    }
  }
}
