/**
 * A run's content hash on this desk: the canonical text of shared/team/run-content.ts fed to
 * Node's SHA-256 a few hundred rows at a time. The same hash as runContentHash (Web Crypto over
 * the whole text, which the renderer can compute too), without building one string of the whole
 * run and encoding it again: a 10,000-row run hashes in a few milliseconds.
 */
import { createHash } from 'node:crypto'
import type { TeamRunContent } from '../../../../shared/domain/team'
import { runContentChunks } from '../../../../shared/team/run-content'

export function contentHashOf(content: Pick<TeamRunContent, 'currency' | 'merchantBearsCost' | 'rows'>): string {
  const hash = createHash('sha256')
  for (const chunk of runContentChunks(content)) hash.update(chunk, 'utf8')
  return hash.digest('hex')
}
