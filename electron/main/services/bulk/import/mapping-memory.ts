/**
 * Confirmed column mappings remembered per header layout (decision 19), in userData as one small
 * JSON file written atomically. Keys are header texts from files: kept in a Map, never as object
 * keys, so a "__proto__" header is just text.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { BULK_FIELDS, type BulkColumnMapping, type BulkField } from '../../../../../shared/domain/bulk'
import { layoutKey } from '../../../../../shared/bulk/header'

const FILE_NAME = 'bulk-mappings.json'
const MAX_LAYOUTS = 200

function isMapping(value: unknown): value is BulkColumnMapping {
  return (
    Array.isArray(value) &&
    value.every((field) => field === null || (BULK_FIELDS as readonly string[]).includes(field as BulkField))
  )
}

export class MappingMemory {
  private readonly path: string

  constructor(userDataDir: string) {
    this.path = join(userDataDir, FILE_NAME)
  }

  /** Every remembered layout, most recent last; an unreadable file is an empty memory. */
  async entries(): Promise<Array<[string, BulkColumnMapping]>> {
    let parsed: unknown
    try {
      parsed = JSON.parse(await readFile(this.path, 'utf8'))
    } catch {
      return []
    }
    const layouts = (parsed as { layouts?: unknown })?.layouts
    if (!Array.isArray(layouts)) return []
    return layouts.filter(
      (entry): entry is [string, BulkColumnMapping] =>
        Array.isArray(entry) && typeof entry[0] === 'string' && isMapping(entry[1]),
    )
  }

  async recall(headers: readonly string[]): Promise<BulkColumnMapping | null> {
    const key = layoutKey(headers)
    return new Map(await this.entries()).get(key) ?? null
  }

  async remember(headers: readonly string[], mapping: BulkColumnMapping): Promise<void> {
    const key = layoutKey(headers)
    const kept = (await this.entries()).filter(([known]) => known !== key)
    kept.push([key, [...mapping]])
    const body = JSON.stringify({ version: 1, layouts: kept.slice(-MAX_LAYOUTS) })
    await mkdir(join(this.path, '..'), { recursive: true })
    const temporary = `${this.path}.tmp`
    await writeFile(temporary, body, { encoding: 'utf8', mode: 0o600 })
    await rename(temporary, this.path)
  }
}
