/**
 * The log file in userData/logs, written by electron-log (its Node entry: no electron import, so
 * the bridge and the unit tests write the same file the desktop app does). Levels error, warn and
 * info; the file rotates at `maxBytes` into main.1.log … main.<keep>.log, the oldest dropped.
 * Nothing reaches this sink unmasked: redacting-log.ts sits in front of it.
 */
import { randomUUID } from 'node:crypto'
import { chmodSync, existsSync, readFileSync, renameSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import electronLog from 'electron-log/node'

export interface FileLogSink {
  error(message: string, detail?: string): void
  warn(message: string, detail?: string): void
  info(message: string, detail?: string): void
  /** The current log file. */
  readonly file: string
  readonly directory: string
  /** The last `count` lines of the log (the current file, after the previous one when it is short). */
  tail(count: number): string[]
}

export const LOG_FILE_NAME = 'main.log'

export function createFileLogSink(options: { directory: string; maxBytes?: number; keep?: number }): FileLogSink {
  const { directory, maxBytes = 1024 * 1024, keep = 5 } = options
  const file = join(directory, LOG_FILE_NAME)
  const archived = (index: number) => join(directory, `main.${index}.log`)

  // Its own logger instance: two app instances in one process (tests) never share a file.
  const logger = electronLog.create({ logId: `payout-desk-${randomUUID()}` })
  logger.transports.console.level = false
  logger.transports.file.level = 'info'
  logger.transports.file.maxSize = maxBytes
  logger.transports.file.format = '[{y}-{m}-{d} {h}:{i}:{s}.{ms}] [{level}] {text}'
  logger.transports.file.resolvePathFn = () => file
  // Only this user may read the log (0600), as the journal and settings: it names payees and amounts.
  logger.transports.file.writeOptions = { flag: 'a', mode: 0o600, encoding: 'utf8' }
  // A log written before by an older version (0644) is narrowed too, and so are its archives.
  for (const existing of [file, ...Array.from({ length: keep }, (_, index) => archived(index + 1))]) {
    try {
      if (existsSync(existing)) chmodSync(existing, 0o600)
    } catch {
      // Not ours to change (another user's file): the log still works.
    }
  }
  logger.transports.file.archiveLogFn = (current) => {
    rmSync(archived(keep), { force: true })
    for (let index = keep - 1; index >= 1; index -= 1) {
      if (existsSync(archived(index))) renameSync(archived(index), archived(index + 1))
    }
    renameSync(current.toString(), archived(1))
  }

  const write = (level: 'error' | 'warn' | 'info') => (message: string, detail?: string) => {
    if (detail === undefined) logger[level](message)
    else logger[level](message, detail)
  }

  return {
    error: write('error'),
    warn: write('warn'),
    info: write('info'),
    file,
    directory,
    tail(count) {
      const lines = [...readLines(archived(1)), ...readLines(file)]
      return lines.slice(-count)
    },
  }
}

function readLines(path: string): string[] {
  try {
    return readFileSync(path, 'utf8')
      .split(/\r?\n/)
      .filter((line) => line.length > 0)
  } catch {
    return []
  }
}
