/**
 * What changed between two versions of a run, matched by payout reference: the Approvals screen
 * shows an approver the changes since the version they last looked at.
 */
import { PAYOUT_ROW_VALUE_FIELDS } from '../domain/payout-row'
import type { TeamRunChanges, TeamRunField, TeamRunRow } from '../domain/team'

const FIELDS: readonly TeamRunField[] = PAYOUT_ROW_VALUE_FIELDS

interface VersionHead {
  runId: string
  version: number
  currency: string
  merchantBearsCost: boolean
}

export function diffRunVersions(
  from: VersionHead,
  fromRows: readonly TeamRunRow[],
  to: VersionHead,
  toRows: readonly TeamRunRow[],
): TeamRunChanges {
  const before = new Map(fromRows.map((row) => [row.reference, row]))
  const after = new Map(toRows.map((row) => [row.reference, row]))
  const changes: TeamRunChanges = {
    runId: to.runId,
    fromVersion: from.version,
    toVersion: to.version,
    currency: from.currency === to.currency ? null : { from: from.currency, to: to.currency },
    merchantBearsCost:
      from.merchantBearsCost === to.merchantBearsCost
        ? null
        : { from: from.merchantBearsCost, to: to.merchantBearsCost },
    added: toRows.filter((row) => !before.has(row.reference)),
    removed: fromRows.filter((row) => !after.has(row.reference)),
    changed: [],
    moved: 0,
  }
  for (const row of toRows) {
    const old = before.get(row.reference)
    if (!old) continue
    const fields = FIELDS.filter((field) => old[field] !== row[field])
    if (fields.length > 0) changes.changed.push({ reference: row.reference, fields, from: old, to: row })
    if (old.position !== row.position) changes.moved += 1
  }
  return changes
}
