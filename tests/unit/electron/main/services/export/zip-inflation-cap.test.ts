/**
 * Inflation stops at a cap on the real bytes produced, per entry and per file, whatever the ZIP's
 * directory declares (decision 101): a part that declares a few bytes and really unpacks to hundreds
 * of megabytes is stopped as soon as it passes what it declared, with an error naming the part.
 */
import { constants, crc32, deflateRawSync } from 'node:zlib'
import { zipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import {
  UnpackBudget,
  zipDirectory,
  zipEntryBytes,
  zipRealSizeProblem,
} from '../../../../../../electron/main/services/export/zip'

/** A one-entry ZIP whose entry really unpacks to `real` spaces and declares `declared` bytes. */
function lyingZip(name: string, real: number, declared: number): Uint8Array {
  const slice = Buffer.alloc(1024 * 1024, ' ')
  const block = deflateRawSync(slice, { level: 9, finishFlush: constants.Z_SYNC_FLUSH })
  const pieces: Buffer[] = []
  let crc = 0
  for (let left = real; left > 0; left -= slice.length) {
    const part = left >= slice.length ? slice : slice.subarray(0, left)
    pieces.push(part === slice ? block : deflateRawSync(part, { finishFlush: constants.Z_SYNC_FLUSH }))
    crc = crc32(part, crc)
  }
  pieces.push(deflateRawSync(Buffer.alloc(0)))
  const data = Buffer.concat(pieces)
  const nameBytes = Buffer.from(name)
  const local = Buffer.alloc(30)
  local.writeUInt32LE(0x04034b50, 0)
  local.writeUInt16LE(20, 4)
  local.writeUInt16LE(8, 8)
  local.writeUInt32LE(crc >>> 0, 14)
  local.writeUInt32LE(data.length, 18)
  local.writeUInt32LE(declared, 22)
  local.writeUInt16LE(nameBytes.length, 26)
  const central = Buffer.alloc(46)
  central.writeUInt32LE(0x02014b50, 0)
  central.writeUInt16LE(20, 4)
  central.writeUInt16LE(20, 6)
  central.writeUInt16LE(8, 10)
  central.writeUInt32LE(crc >>> 0, 16)
  central.writeUInt32LE(data.length, 20)
  central.writeUInt32LE(declared, 24)
  central.writeUInt16LE(nameBytes.length, 28)
  const directoryStart = 30 + nameBytes.length + data.length
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(1, 8)
  end.writeUInt16LE(1, 10)
  end.writeUInt32LE(46 + nameBytes.length, 12)
  end.writeUInt32LE(directoryStart, 16)
  return Buffer.concat([local, nameBytes, data, central, nameBytes, end])
}

describe('inflation capped on the real bytes', () => {
  it('stops an entry that unpacks past what its directory declares, naming the entry', () => {
    const bytes = lyingZip('xl/worksheets/sheet1.xml', 256 * 1024 * 1024, 100)
    const entry = zipDirectory(bytes)?.get('xl/worksheets/sheet1.xml')
    expect(entry?.originalSize).toBe(100)
    expect(() => zipEntryBytes(bytes, entry!, 16 * 1024 * 1024)).toThrow(
      /^xl\/worksheets\/sheet1\.xml unpacks to more than the 100 bytes its directory declares \(its sizes lie\); unpacking was stopped there$/,
    )
  })

  it('stops a file whose honest entries together pass the budget, naming the entry where it stopped', () => {
    const part = Buffer.alloc(3 * 1024 * 1024, 'a')
    const bytes = zipSync({ 'a.xml': part, 'b.xml': part })
    const directory = zipDirectory(bytes)!
    const budget = new UnpackBudget(5 * 1024 * 1024)
    expect(zipEntryBytes(bytes, directory.get('a.xml')!, 16 * 1024 * 1024, budget).equals(part)).toBe(true)
    expect(() => zipEntryBytes(bytes, directory.get('b.xml')!, 16 * 1024 * 1024, budget)).toThrow(
      /^b\.xml would take the workbook past the 5 MB a file may unpack to; unpacking was stopped there$/,
    )
  })

  it('reads an honest entry whole, and checks its CRC-32', () => {
    const part = Buffer.from('<worksheet>honest</worksheet>')
    const bytes = zipSync({ 'sheet.xml': part })
    const directory = zipDirectory(bytes)!
    expect(zipEntryBytes(bytes, directory.get('sheet.xml')!, 1024).toString()).toBe(part.toString())
    expect(zipRealSizeProblem(bytes, directory, { perEntry: 1024, perFile: 1024 })).toBeNull()
  })

  it('counts every entry for a reader that inflates on its own, keeping none, and stops at the lie', () => {
    const bytes = lyingZip('xl/sharedStrings.xml', 256 * 1024 * 1024, 300)
    const directory = zipDirectory(bytes)!
    expect(zipRealSizeProblem(bytes, directory, { perEntry: 1 << 30, perFile: 1 << 30 })).toBe(
      'its part xl/sharedStrings.xml unpacks to more than the 300 bytes its directory declares (its sizes lie); unpacking was stopped there',
    )
    const honest = zipSync({ 'a.xml': Buffer.alloc(3 * 1024 * 1024, 'a'), 'b.xml': Buffer.alloc(3 * 1024 * 1024, 'b') })
    expect(zipRealSizeProblem(honest, zipDirectory(honest)!, { perEntry: 4 << 20, perFile: 5 << 20 })).toBe(
      'its parts unpack to more than 5 MB in all (stopped at b.xml)',
    )
    expect(zipRealSizeProblem(honest, zipDirectory(honest)!, { perEntry: 2 << 20, perFile: 1 << 30 })).toBe(
      'its part a.xml unpacks to more than 2 MB; unpacking was stopped there',
    )
  })
})
