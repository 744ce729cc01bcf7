#!/usr/bin/env node
// Payout Desk: the auditor's verifier for an exported journal (decision 107, 118).
// Needs only Node.js (18 or later); nothing is installed, nothing leaves this machine.
//
//   node verify-export.mjs [folder]     (the folder of the export; default: this script's folder)
//
// It reads journal.jsonl (the journal's records exactly as the desk wrote them, one per line) and
// manifest.json (the head at the time of export), then checks, record by record:
//   - each record's SHA-256 over its own line without its "hash" and "mac" fields equals its "hash";
//   - each record's "prev" is the hash of the record before it (the first one's: 64 zeros, or the
//     hash the manifest names as where the export starts);
//   - the numbers (seq) follow one another;
//   - the last record is the head the manifest names.
// It prints what it verified, or the first record where the chain breaks, and exits 0 or 1.
// The "mac" seals prove the records to the desk that wrote them (its key stays in its keychain);
// they are not needed here. Keep the head it prints: finding it again at the same number in a later
// export proves the records up to it were not rewritten in between.
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const GENESIS = '0'.repeat(64)

export function verifyJournalLines(lines, manifest) {
  let prev = manifest.startsAfter?.hash ?? GENESIS
  let seq = manifest.startsAfter?.seq ?? 0
  let checked = 0
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]
    const where = `line ${index + 1}`
    let record
    try {
      record = JSON.parse(line)
    } catch {
      return { ok: false, checked, message: `${where} is not a journal record (not JSON): the file was changed or cut.` }
    }
    const name = `record ${record.seq ?? '?'} (${where}${record.reference ? `, ${record.reference}` : ''})`
    if (typeof record.hash !== 'string' || !/^[0-9a-f]{64}$/.test(record.hash))
      return { ok: false, checked, message: `${name} has no hash: it was changed after it was written.` }
    const ending = `,"hash":"${record.hash}"${record.mac === undefined ? '' : `,"mac":"${record.mac}"`}}`
    if (!line.endsWith(ending))
      return { ok: false, checked, message: `${name}: its hash is not where the desk writes it: the line was rewritten.` }
    const own = createHash('sha256').update(`${line.slice(0, -ending.length)}}`).digest('hex')
    if (own !== record.hash)
      return { ok: false, checked, message: `${name} was changed after it was written: its content no longer hashes to ${record.hash.slice(0, 12)}….` }
    if (record.seq !== seq + 1)
      return { ok: false, checked, message: `${name} should be record ${seq + 1}: records were removed, added or reordered before it.` }
    if (record.prev !== prev)
      return { ok: false, checked, message: `${name} does not follow the record before it (its prev is ${String(record.prev).slice(0, 12)}…, not ${prev.slice(0, 12)}…): records were removed, added or rewritten before it.` }
    prev = record.hash
    seq = record.seq
    checked++
  }
  if (manifest.head && (manifest.head.seq !== seq || manifest.head.hash !== prev))
    return {
      ok: false,
      checked,
      message: `The export ends at record ${seq} (${prev.slice(0, 12)}…), not at the head the manifest names, record ${manifest.head.seq} (${String(manifest.head.hash).slice(0, 12)}…): records were cut from its end or added.`,
    }
  return {
    ok: true,
    checked,
    head: { seq, hash: prev },
    message: `Verified ${checked} records, one unbroken chain from ${manifest.startsAfter ? `record ${manifest.startsAfter.seq + 1}` : 'the first record'} to record ${seq}. Head: ${prev}.`,
  }
}

const invoked = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]
if (invoked) {
  const folder = process.argv[2] ?? dirname(fileURLToPath(import.meta.url))
  let manifest
  let text
  try {
    manifest = JSON.parse(readFileSync(join(folder, 'manifest.json'), 'utf8'))
    text = readFileSync(join(folder, 'journal.jsonl'), 'utf8')
  } catch (error) {
    console.error(`Cannot read the export in ${folder}: ${error.message}`)
    process.exit(2)
  }
  const lines = text.split('\n').filter((line) => line !== '')
  const result = verifyJournalLines(lines, manifest)
  console.log(result.message)
  if (result.ok && manifest.exportedAt) console.log(`Exported at ${manifest.exportedAt} by ${manifest.exportedBy ?? 'Payout Desk'}.`)
  process.exit(result.ok ? 0 : 1)
}
