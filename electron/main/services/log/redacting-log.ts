/**
 * The main process's log. Every key main has seen (generated Sandbox keys, keys read from or saved
 * to the keychain) is registered here, and any occurrence of one in a logged message or error is
 * masked before it is written: a stack trace or a library's error text cannot carry a key out.
 */
export interface AppLog {
  error(message: string, detail?: unknown): void
  warn(message: string, detail?: unknown): void
  /** Registers a value that must never be written. */
  addSecret(value: string | null | undefined): void
}

export type LogSink = Pick<Console, 'error' | 'warn'>

const MASK = '[redacted]'
/** Values shorter than this are too common to mask safely (they would garble ordinary text). */
const MIN_SECRET_LENGTH = 8

export function createRedactingLog(sink: LogSink = console): AppLog {
  const secrets = new Set<string>()

  function redact(text: string): string {
    let result = text
    for (const secret of secrets) result = result.split(secret).join(MASK)
    return result
  }

  function describe(detail: unknown): string | undefined {
    if (detail === undefined) return undefined
    if (detail instanceof Error) return redact(detail.stack ?? `${detail.name}: ${detail.message}`)
    if (typeof detail === 'string') return redact(detail)
    try {
      return redact(JSON.stringify(detail))
    } catch {
      return redact(String(detail))
    }
  }

  function write(level: 'error' | 'warn', message: string, detail?: unknown): void {
    const text = describe(detail)
    if (text === undefined) sink[level](redact(message))
    else sink[level](redact(message), text)
  }

  return {
    error: (message, detail) => write('error', message, detail),
    warn: (message, detail) => write('warn', message, detail),
    addSecret(value) {
      if (value && value.length >= MIN_SECRET_LENGTH) secrets.add(value)
    },
  }
}
