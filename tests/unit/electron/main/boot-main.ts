/**
 * Boots main's start-up (electron/main/main-process.ts) against the recording Electron stand-in,
 * with stand-in services that record the channels they serve (or the real ones), for the tests of
 * what main asks Electron to do.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect } from 'vitest'
import type { AppServices } from '../../../../electron/main/app-services'
import { startMainProcess } from '../../../../electron/main/main-process'
import type { ServiceStart } from '../../../../electron/main/main-process'
import type { SecretStore } from '../../../../electron/main/services/secrets/secret-store'
import { disabledUpdates } from '../../../../electron/main/updates/update-control'
import { recordingElectron } from './recording-electron'
import type { FakeWebContents, RecordingElectron } from './recording-electron'

export const ROOT = join(__dirname, '../../../..')
export const RENDERER = join(ROOT, 'out/renderer')
export const PRELOAD = join(ROOT, 'out/preload/index.js')
export const APP_PAGE = 'app://payout-desk/index.html'

export const memoryKeychain = (): SecretStore => {
  const keys = new Map<string, string>()
  return {
    get: async (profile, kind) => keys.get(`${profile}:${kind}`) ?? null,
    set: async (profile, kind, value) => void keys.set(`${profile}:${kind}`, value),
    delete: async (profile, kind) => void keys.delete(`${profile}:${kind}`),
  }
}

const folders: string[] = []
afterEach(async () => {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true })
})

export interface Booted {
  rec: RecordingElectron
  main: ReturnType<typeof startMainProcess>
  /** What main handed each services start (the desktop adapters among it). */
  started: ServiceStart[]
  /** Channels the stand-in services ran. */
  served: string[]
  logged: string[]
  userDataDir: string
  ready(): Promise<void>
}

export async function boot(
  options: {
    lockGranted?: boolean
    devServerUrl?: string
    realServices?: boolean
    isPackaged?: boolean
    argv?: readonly string[]
  } = {},
): Promise<Booted> {
  const userDataDir = await mkdtemp(join(tmpdir(), 'payout-desk-main-'))
  folders.push(userDataDir)
  const rec = recordingElectron({
    userDataDir,
    ...(options.lockGranted === undefined ? {} : { lockGranted: options.lockGranted }),
    ...(options.isPackaged === undefined ? {} : { isPackaged: options.isPackaged }),
  })
  const started: ServiceStart[] = []
  const served: string[] = []
  const logged: string[] = []
  const services = {
    handlers: new Proxy(
      {},
      {
        get: (_target, channel: string) => async (input: unknown) => {
          served.push(channel)
          return channel === 'desktop:copyDiagnostics' ? { text: 'diagnostics', logLines: 0 } : { echoed: input }
        },
      },
    ),
    log: {
      error: (message: string) => void logged.push(`error: ${message}`),
      warn: (message: string) => void logged.push(`warn: ${message}`),
      info: (message: string) => void logged.push(`info: ${message}`),
      addSecret: () => undefined,
    },
    logFile: { file: join(userDataDir, 'logs', 'main.log'), tail: () => [] },
    close: async () => void served.push('(close)'),
  } as unknown as AppServices
  const main = startMainProcess(rec.electron, {
    rendererDir: RENDERER,
    preloadPath: PRELOAD,
    devServerUrl: options.devServerUrl,
    keychain: memoryKeychain(),
    ...(options.realServices
      ? {}
      : {
          startServices: async (start: ServiceStart) => {
            rec.calls.push('services.start')
            started.push(start)
            return services
          },
        }),
    startUpdates: async () => disabledUpdates('Not in tests.'),
    platform: 'linux',
    argv: options.argv ?? ['/opt/Payout Desk/payout-desk'],
    console: {
      error: (message: string) => void logged.push(`console error: ${message}`),
      warn: (message: string) => void logged.push(`console warn: ${message}`),
    },
  })
  return {
    rec,
    main,
    started,
    served,
    logged,
    userDataDir,
    async ready() {
      rec.becomeReady()
      await main.started
    },
  }
}

export function mainWindowOf(booted: Booted) {
  const window = booted.rec.windows[0]
  if (!window) throw new Error('no window was created')
  return window
}

/** Calls a channel as Electron would deliver it to ipcMain.handle. */
export async function invoke(
  booted: Booted,
  channel: string,
  payload: unknown,
  from: { sender: FakeWebContents; frame: { url: string } },
): Promise<unknown> {
  const handlers = booted.rec.ipcHandlers.get(channel) ?? []
  expect(handlers).toHaveLength(1)
  return handlers[0]!({ sender: from.sender, senderFrame: from.frame }, payload)
}
