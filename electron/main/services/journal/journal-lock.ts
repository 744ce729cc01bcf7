/**
 * One writer per journal: a lock file created exclusively next to it, naming the process that
 * holds it. A lock left by a process that no longer runs on this machine (a crash, kill -9) is
 * taken over; a live holder means another copy of the app, and this one must send nothing.
 */
import { open, readFile, rm } from 'node:fs/promises'
import { hostname } from 'node:os'

export class JournalInUseError extends Error {
  constructor(
    readonly lockFile: string,
    readonly holderPid: number | null,
  ) {
    super(
      `The journal is in use by another copy of Payout Desk${holderPid ? ` (process ${holderPid})` : ''}. ` +
        `This copy will not send anything; close the other one and start again. (Lock: ${lockFile})`,
    )
    this.name = 'JournalInUseError'
  }
}

interface LockContent {
  pid: number
  host: string
  since: string
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it runs, under another user. ESRCH: no such process.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

export interface JournalLock {
  release(): Promise<void>
}

export async function acquireJournalLock(lockFile: string): Promise<JournalLock> {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const handle = await open(lockFile, 'wx', 0o600)
      const content: LockContent = { pid: process.pid, host: hostname(), since: new Date().toISOString() }
      await handle.writeFile(JSON.stringify(content))
      await handle.sync()
      await handle.close()
      let released = false
      return {
        async release() {
          if (released) return
          released = true
          await rm(lockFile, { force: true })
        },
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
    const holder = await readHolder(lockFile)
    const stale = holder !== null && holder.host === hostname() && holder.pid !== process.pid && !isRunning(holder.pid)
    // A lock file we cannot read was torn by a crash while it was being written: stale too.
    if (holder === null || stale) {
      await rm(lockFile, { force: true })
      continue
    }
    throw new JournalInUseError(lockFile, holder.pid)
  }
  throw new JournalInUseError(lockFile, null)
}

async function readHolder(lockFile: string): Promise<LockContent | null> {
  try {
    const parsed = JSON.parse(await readFile(lockFile, 'utf8')) as Partial<LockContent>
    if (typeof parsed.pid !== 'number' || typeof parsed.host !== 'string') return null
    return { pid: parsed.pid, host: parsed.host, since: String(parsed.since ?? '') }
  } catch {
    return null
  }
}
