/**
 * The main process's log. Every key main has seen (generated Sandbox keys, keys read from or saved
 * to the keychain) is registered here, and any occurrence of one in a logged message or error is
 * masked before it is written: a stack trace or a library's error text cannot carry a key out.
 */
export interface AppLog {
  error(message: string, detail?: unknown): void
  warn(message: string, detail?: unknown): void
  /** Ordinary events worth finding in a support ticket (a money movement's state, a reload). */
  info(message: string, detail?: unknown): void
  /** Registers a value that must never be written. */
  addSecret(value: string | null | undefined): void
}

/** Where lines go once masked. Sinks without `info` (the console by default) skip info lines. */
export type LogSink = Pick<Console, 'error' | 'warn'> & { info?: (message: string, detail?: string) => void }
type Level = 'error' | 'warn' | 'info'

/** Every line to each sink: the log file (all levels) and the console (errors and warnings). */
export function teeSinks(...sinks: LogSink[]): LogSink {
  const each = (level: Level) => (message: string, detail?: string) => {
    for (const sink of sinks) {
      const target = sink[level]
      if (!target) continue
      if (detail === undefined) target.call(sink, message)
      else target.call(sink, message, detail)
    }
  }
  return { error: each('error'), warn: each('warn'), info: each('info') }
}

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

  function write(level: Level, message: string, detail?: unknown): void {
    const target = sink[level]
    if (!target) return
    const text = describe(detail)
    if (text === undefined) target.call(sink, redact(message))
    else target.call(sink, redact(message), text)
  }

  return {
    error: (message, detail) => write('error', message, detail),
    warn: (message, detail) => write('warn', message, detail),
    info: (message, detail) => write('info', message, detail),
    addSecret(value) {
      if (value && value.length >= MIN_SECRET_LENGTH) secrets.add(value)
    },
  }
}
