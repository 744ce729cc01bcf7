/**
 * One writer per journal: a lock file next to it, naming the process that holds it. The file is
 * written whole under a temporary name and then linked into place (link fails if the lock exists),
 * so no other process ever reads a half-written lock. A lock left by a process that no longer runs
 * on this machine (a crash, kill -9, or a reboot since) is taken over; a live holder means another
 * copy of the app, and this one must send nothing.
 */
import { randomBytes } from 'node:crypto'
import { link, open, readFile, rename, rm } from 'node:fs/promises'
import { readFileSync } from 'node:fs'
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
  /** Linux boot id: a lock from before a reboot is stale even if its pid runs again. */
  boot?: string
  since: string
  /** Tells this holder's lock from any other, so release and takeover touch only the right one. */
  nonce: string
}

function bootId(): string | undefined {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || undefined
  } catch {
    return undefined
  }
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
  const mine: LockContent = {
    pid: process.pid,
    host: hostname(),
    ...(bootId() ? { boot: bootId()! } : {}),
    since: new Date().toISOString(),
    nonce: randomBytes(12).toString('hex'),
  }
  const text = JSON.stringify(mine)
  for (let attempt = 0; attempt < 5; attempt++) {
    if (await linkInPlace(lockFile, text)) {
      let released = false
      return {
        async release() {
          if (released) return
          released = true
          // Only our own lock: never one another process took over after we were thought dead.
          const holder = await readHolder(lockFile)
          if (holder?.nonce === mine.nonce) await rm(lockFile, { force: true })
        },
      }
    }
    const holder = await readHolder(lockFile)
    if (holder && !isStale(holder)) throw new JournalInUseError(lockFile, holder.pid)
    // A lock we cannot read (a crash while it was written outside our scheme) is stale too.
    await takeOver(lockFile, holder)
  }
  throw new JournalInUseError(lockFile, null)
}

function isStale(holder: LockContent): boolean {
  if (holder.host !== hostname()) return false
  if (holder.pid === process.pid) return false
  const boot = bootId()
  if (holder.boot && boot && holder.boot !== boot) return true
  return !isRunning(holder.pid)
}

/** Creates the lock with its whole content at once; false when a lock is already there. */
async function linkInPlace(lockFile: string, text: string): Promise<boolean> {
  const temporary = `${lockFile}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`
  const handle = await open(temporary, 'wx', 0o600)
  try {
    await handle.writeFile(text)
    await handle.sync()
  } finally {
    await handle.close()
  }
  try {
    await link(temporary, lockFile)
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    return false
  } finally {
    await rm(temporary, { force: true })
  }
}

/**
 * Moves the stale lock out of the way under a name of our own, then checks it is the one we found
 * stale: if another process took over in between, what we moved is its fresh lock, and it goes
 * back in place.
 */
async function takeOver(lockFile: string, stale: LockContent | null): Promise<void> {
  const moved = `${lockFile}.stale-${randomBytes(6).toString('hex')}`
  try {
    await rename(lockFile, moved)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return
    throw error
  }
  const found = await readHolder(moved)
  if (found !== null && found.nonce !== stale?.nonce) {
    try {
      await link(moved, lockFile)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
  }
  await rm(moved, { force: true })
}

async function readHolder(lockFile: string): Promise<LockContent | null> {
  try {
    const parsed = JSON.parse(await readFile(lockFile, 'utf8')) as Partial<LockContent>
    if (typeof parsed.pid !== 'number' || typeof parsed.host !== 'string') return null
    return {
      pid: parsed.pid,
      host: parsed.host,
      ...(typeof parsed.boot === 'string' ? { boot: parsed.boot } : {}),
      since: String(parsed.since ?? ''),
      nonce: String(parsed.nonce ?? ''),
    }
  } catch {
    return null
  }
}
