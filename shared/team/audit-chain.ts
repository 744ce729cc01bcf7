/**
 * The team's audit trail checked on the desk: each entry's hash over its content and the hash
 * before it, exactly as the database computes it (payout_desk.audit_hash), so a desk does not have
 * to trust the server's own verdict (payout_desk.audit_verify) to find an altered or removed entry.
 */
import type { AuditChainCheck, TeamAuditEntry } from '../domain/team'
import { hashField, sha256Hex } from './canonical-text'

export const AUDIT_GENESIS_HASH = '0'.repeat(64)

export function auditEntryText(entry: Omit<TeamAuditEntry, 'hash'>): string {
  return [
    'payout-desk audit v1',
    String(entry.seq),
    entry.at,
    hashField(entry.actor),
    hashField(entry.deskId ?? ''),
    hashField(entry.kind),
    hashField(entry.runId ?? ''),
    hashField(entry.subject ?? ''),
    hashField(entry.details),
    entry.prevHash,
  ].join('\n')
}

/**
 * Checks entries read in order from the first. `previous` continues a check from an entry already
 * verified (its seq and hash). Names the first entry that is missing, unlinked or altered.
 */
export async function verifyAuditChain(
  entries: readonly TeamAuditEntry[],
  previous: { seq: number; hash: string } = { seq: 0, hash: AUDIT_GENESIS_HASH },
): Promise<AuditChainCheck> {
  let expected = previous.seq + 1
  let prev = previous.hash
  let checked = 0
  for (const entry of entries) {
    const broken = (reason: string): AuditChainCheck => ({
      ok: false,
      checked,
      firstBroken: { seq: entry.seq, reason },
    })
    if (entry.seq !== expected)
      return {
        ok: false,
        checked,
        firstBroken: { seq: expected, reason: `entry ${expected} is missing (the next one is ${entry.seq})` },
      }
    if (entry.prevHash !== prev) return broken('its link to the entry before it is broken')
    if ((await sha256Hex(auditEntryText(entry))) !== entry.hash) return broken('its content does not match its hash')
    prev = entry.hash
    expected += 1
    checked += 1
  }
  return { ok: true, checked, firstBroken: null }
}
