/**
 * A real kill inside a money movement, for the Playwright flows: a desk process of its own
 * (killed-desk-process.ts) on the test's user data is asked through its IPC, as its renderer would,
 * and SIGKILLs itself at the checkpoint (the soak's kill points, electron/main/services/checkpoints.ts).
 * What it wrote to disk before the kill (its journal, the Sandbox's state) is what the next desk
 * started on that user data finds.
 */
import { spawn } from 'node:child_process'
import { resolve } from 'node:path'
import { createInterface } from 'node:readline'
import type { Checkpoint } from '../../electron/main/services/checkpoints'
import { BRIDGE_TOKEN_PARAM } from '../../shared/ipc/window-api'
import { nodeArgsFor } from '../support/child-bundles'

/**
 * Starts a desk on `userDataDir`, calls `channel` with `payload`, and resolves once the desk killed
 * itself at `checkpoint` (the call gets no answer) and exited. Rejects if the call answered or the
 * desk exited otherwise: the kill did not land where the test needs it.
 */
export async function killDeskAt(
  userDataDir: string,
  checkpoint: Checkpoint,
  call: { channel: string; payload: unknown },
): Promise<{ killedAt: Checkpoint; reference?: string }> {
  const child = spawn(process.execPath, nodeArgsFor(resolve(__dirname, 'killed-desk-process.ts')), {
    cwd: resolve(__dirname, '../..'),
    env: { ...process.env, USER_DATA: userDataDir, KILL_AT: checkpoint },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.once('exit', (code, signal) => done({ code, signal })),
  )
  const messages: Array<Record<string, unknown>> = []
  const listening = new Promise<string>((done, fail) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const message = JSON.parse(line) as Record<string, unknown>
      messages.push(message)
      if (typeof message['appUrl'] === 'string') done(message['appUrl'])
    })
    void exited.then(({ code, signal }) => fail(new Error(`The desk exited before listening (${code ?? signal})`)))
  })
  try {
    const url = new URL(await listening)
    const answer = await fetch(new URL(`/ipc/${call.channel}`, url.origin), {
      method: 'POST',
      headers: {
        authorization: `Bearer ${url.searchParams.get(BRIDGE_TOKEN_PARAM)}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ payload: call.payload }),
    }).then(
      async (response) => `answered ${response.status}: ${await response.text()}`,
      () => null,
    )
    if (answer !== null) throw new Error(`${call.channel} ${answer}: the desk was not killed at ${checkpoint}`)
    // Reaped before this returns: the journal's lock names a process that no longer runs.
    const { signal } = await exited
    const killed = messages.find((message) => message['killedAt'] === checkpoint)
    if (signal !== 'SIGKILL' || !killed) throw new Error(`The desk ended with ${signal}, not killed at ${checkpoint}`)
    return killed as { killedAt: Checkpoint; reference?: string }
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  }
}
