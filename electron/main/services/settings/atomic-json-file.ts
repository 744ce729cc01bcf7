/**
 * A JSON file that is never left half-written: each save goes to a temporary file that is fsynced,
 * then renamed over the old one, and the folder is fsynced so the rename itself survives a crash.
 */
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises'
import { dirname } from 'node:path'
import type { z } from 'zod'
import { AppFailure } from '../../../../shared/result'
import { syncDirectory } from '../files'

/** A damaged file is reported with its path and the problem, and left untouched for the user. */
export class SettingsFileError extends AppFailure {
  constructor(
    readonly file: string,
    reason: string,
  ) {
    super('internal', `${file}: ${reason}. The file was left untouched; move it aside to start with fresh settings.`)
    this.name = 'SettingsFileError'
  }
}

/**
 * `indent`: 2 for a file a person may read (settings); 0 for one main rewrites often and large (a
 * run's state while it is sent, once a second: its batches list every row's index, a line each
 * when indented, twice the text and time).
 */
export async function writeJsonAtomically(file: string, value: unknown, indent: 0 | 2 = 2): Promise<void> {
  await mkdir(dirname(file), { recursive: true })
  const temporary = `${file}.${process.pid}.${Date.now()}.tmp`
  const handle = await open(temporary, 'w', 0o600)
  try {
    await handle.writeFile(`${JSON.stringify(value, null, indent)}\n`, 'utf8')
    await handle.sync()
  } finally {
    await handle.close()
  }
  try {
    await rename(temporary, file)
  } catch (error) {
    await rm(temporary, { force: true })
    throw error
  }
  await syncDirectory(dirname(file))
}

/**
 * Reads and validates a JSON file. A missing file gives `fallback`; a file that exists but is not
 * valid is an error that names the file and the problem, never silently replaced.
 */
export async function readJsonFile<T>(file: string, schema: z.ZodType<T>, fallback: T): Promise<T> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return fallback
    throw error
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    throw new SettingsFileError(file, `not valid JSON (${(error as Error).message})`)
  }
  const parsed = schema.safeParse(json)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new SettingsFileError(file, `${issue?.path.join('.') || '(root)'} ${issue?.message ?? 'is invalid'}`)
  }
  return parsed.data
}
