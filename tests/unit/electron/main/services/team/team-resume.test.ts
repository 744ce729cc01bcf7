/**
 * Team runs at start-up (decision 65): a run this desk was releasing waits for the team connection
 * with a message saying so, and carries on by itself once the desk is connected, whenever that is;
 * a run that is not a team run, or a desk already connected, is not held.
 */
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { TeamStatus } from '../../../../../../shared/domain/team'
import { writeReleaseList } from '../../../../../../electron/main/services/team/team-release-list'
import { createTeamResume } from '../../../../../../electron/main/services/team/team-resume'

/** A team service's status and its connection, as the resume sees them. */
function connection(initial: TeamStatus['state']) {
  let state = initial
  let message: string | undefined
  const waiters: Array<() => void> = []
  return {
    team: {
      status: async () => ({ state, ...(message ? { message } : {}) }) as TeamStatus,
      whenConnected: () =>
        state === 'connected' ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve)),
    },
    set(next: TeamStatus['state'], why?: string) {
      state = next
      message = why
      if (next === 'connected') for (const wake of waiters.splice(0)) wake()
    },
  }
}

const turn = () => new Promise((resolve) => setTimeout(resolve, 10))

describe('team runs at start-up', () => {
  it('wait for the team connection, saying so, and carry on by themselves once connected', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'team-resume-'))
    await writeReleaseList(dir, [{ runId: 'BR0001', version: 1 }])
    const link = connection('connecting')
    const resume = createTeamResume({ team: link.team, userDataDir: dir })
    expect(await resume.hold('BR0001')).toBe(
      'Waiting for the team database connection (connecting): sending carries on by itself once this desk is connected. Nothing of this run is sent or claimed meanwhile.',
    )
    // A solo run of the same desk is not the team's business.
    expect(await resume.hold('BR0002')).toBeNull()
    const carried: string[] = []
    resume.carryOn(async (runId) => carried.push(runId))
    link.set('lost', 'The team database cannot be reached')
    await turn()
    expect(carried).toEqual([])
    link.set('connected')
    await turn()
    expect(carried).toEqual(['BR0001'])
  })

  it('say why a refused connection holds them, and are not held once the desk is connected', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'team-resume-'))
    await writeReleaseList(dir, [
      { runId: 'BR0001', version: 1 },
      { runId: 'BR0003', version: 2 },
    ])
    const link = connection('disconnected')
    link.set('disconnected', 'The team database refused the login: wrong user name or password.')
    const resume = createTeamResume({ team: link.team, userDataDir: dir })
    const carried: string[] = []
    resume.carryOn(async (runId) => carried.push(runId))
    expect(await resume.hold('BR0001')).toMatch(
      /^Waiting for the team database connection \(not connected \(The team database refused the login: wrong user name or password\)\)/,
    )
    link.set('connected')
    await turn()
    expect(carried).toEqual(['BR0001'])
    // Connected now: a run asked about later resumes at once.
    expect(await resume.hold('BR0003')).toBeNull()
  })
})
