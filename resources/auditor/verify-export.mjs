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
// In team mode the export also holds team-audit-trail.jsonl, the team's audit trail (decision 149):
// each entry's SHA-256 over its fields as the team database hashes them (payout_desk.audit_hash)
// and its link to the entry before it, from the first entry, are checked the same way.
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

const SEPARATOR_LIKE = /[\\\t\n\r]/
const field = (value) =>
  SEPARATOR_LIKE.test(value)
    ? value.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r')
    : value

/** The team's audit trail (shared/team/audit-chain.ts's text and rule), from its first entry. */
export function verifyTeamTrailLines(lines) {
  let prev = GENESIS
  let checked = 0
  for (let index = 0; index < lines.length; index++) {
    let entry
    try {
      entry = JSON.parse(lines[index])
    } catch {
      return { ok: false, checked, message: `Team trail line ${index + 1} is not an entry (not JSON): the file was changed or cut.` }
    }
    const name = `Team trail entry ${entry.seq ?? '?'} (line ${index + 1}, ${entry.kind ?? 'no kind'})`
    if (entry.seq !== checked + 1)
      return { ok: false, checked, message: `${name} should be entry ${checked + 1}: entries were removed, added or reordered before it.` }
    if (entry.prevHash !== prev)
      return { ok: false, checked, message: `${name} does not follow the entry before it: entries were removed, added or rewritten before it.` }
    const text = [
      'payout-desk audit v1',
      String(entry.seq),
      entry.at,
      field(entry.actor),
      field(entry.deskId ?? ''),
      field(entry.kind),
      field(entry.runId ?? ''),
      field(entry.subject ?? ''),
      field(entry.details),
      entry.prevHash,
    ].join('\n')
    if (createHash('sha256').update(text, 'utf8').digest('hex') !== entry.hash)
      return { ok: false, checked, message: `${name} was changed after it was written: its content no longer hashes to ${String(entry.hash).slice(0, 12)}….` }
    prev = entry.hash
    checked++
  }
  return { ok: true, checked, message: `Verified ${checked} entries of the team's audit trail, one unbroken chain from the first. Head: ${prev}.` }
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
  let teamOk = true
  if ((manifest.files ?? []).includes('team-audit-trail.jsonl')) {
    const trail = readFileSync(join(folder, 'team-audit-trail.jsonl'), 'utf8').split('\n').filter((line) => line !== '')
    const team = verifyTeamTrailLines(trail)
    console.log(team.message)
    teamOk = team.ok
  }
  if (result.ok && manifest.exportedAt) console.log(`Exported at ${manifest.exportedAt} by ${manifest.exportedBy ?? 'Payout Desk'}.`)
  process.exit(result.ok && teamOk ? 0 : 1)
}
