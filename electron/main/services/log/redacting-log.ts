/**
 * The main process's log. Every line and detail goes through the one masking of main
 * (services/masking/masking.ts) before a sink sees it: values of card-data and credential fields
 * whatever their length, card numbers by pattern and Luhn, and every secret registered here (keys
 * for good, card data for as long as main holds it). A stack trace or a library's error text
 * cannot carry a key, a card number, a CVV, a PIN or an OTP out.
 */
import { createSecretRegistry, maskText, maskValue } from '../masking'
import type { SecretRegistry } from '../masking'

export interface AppLog {
  error(message: string, detail?: unknown): void
  warn(message: string, detail?: unknown): void
  /** Ordinary events worth finding in a support ticket (a money movement's state, a reload). */
  info(message: string, detail?: unknown): void
  /** Registers a value that must never be written, for as long as main runs (a key). */
  addSecret(value: string | null | undefined): void
  /**
   * Registers card data main holds only for a while (a typed card number, a revealed PAN and CVV):
   * masked until the returned function is called or `forMs` has passed, then forgotten.
   */
  holdSecrets(values: ReadonlyArray<string | null | undefined>, options?: { forMs?: number }): () => void
  /** A text as every sink gets it: for error texts and anything else shown or written. */
  mask(text: string): string
  /** A structured value (error details) with its secrets masked. */
  maskValue<T>(value: T): T
  /** What is registered: the journal's guard refuses values that hold one. */
  readonly secrets: SecretRegistry
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

export function createRedactingLog(sink: LogSink = console, secrets: SecretRegistry = createSecretRegistry()): AppLog {
  const redact = (text: string): string => maskText(text, secrets)

  function describe(detail: unknown): string | undefined {
    if (detail === undefined) return undefined
    if (detail instanceof Error) return redact(detail.stack ?? `${detail.name}: ${detail.message}`)
    if (typeof detail === 'string') return redact(detail)
    try {
      return redact(JSON.stringify(maskValue(detail, secrets)))
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
    addSecret: (value) => secrets.add(value),
    holdSecrets: (values, options) => secrets.hold(values, options),
    mask: redact,
    maskValue: (value) => maskValue(value, secrets),
    secrets,
  }
}
