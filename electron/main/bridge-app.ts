/** The real main services served over the loopback bridge (see ipc/bridge-transport.ts). */
import type { EventName, EventPayload } from '../../shared/ipc/contract'
import { createBridgeDesktop } from './adapters/bridge-desktop'
import type { BridgeDesktop } from './adapters/bridge-desktop'
import { createAppServices } from './app-services'
import type { AppServices } from './app-services'
import { startBridge } from './ipc/bridge-transport'
import type { RunningBridge } from './ipc/bridge-transport'
import { keepHeapSmall } from './heap-policy'
import { createRouter } from './ipc/router'
import { bridgeSenderPolicy, loggingRefusals } from './ipc/sender-policy'
import type { Checkpoints } from './services/checkpoints'
import { KeytarSecretStore } from './services/secrets/keytar-secret-store'
import type { SecretStore } from './services/secrets/secret-store'

export interface RunningBridgeApp {
  bridge: RunningBridge
  services: AppServices
  /** Dialogs, notifications and the clipboard: in test mode, stand-ins tests queue paths for and read. */
  desktop: BridgeDesktop
  close(): Promise<void>
}

export async function startBridgeApp(options: {
  userDataDir: string
  staticDir?: string
  port?: number
  sandboxSettleMs?: number | undefined
  apiTimeoutMs?: number
  teamLeaseSeconds?: number
  keychain?: SecretStore
  onResponse?: (channel: string, body: string) => void
  /** Sees every event main sends to the renderer (benchmarks count what crosses). */
  onEvent?: <E extends EventName>(event: E, payload: EventPayload<E>) => void
  /**
   * The desktop stand-ins a test drives (queued dialog paths, an in-memory clipboard) instead of
   * the browser surface a person uses (file picker, downloads, the browser's clipboard).
   */
  testMode?: boolean
  /** Kill points of crash tests (services/checkpoints.ts): a test's desk process stops itself there. */
  checkpoints?: Checkpoints
}): Promise<RunningBridgeApp> {
  // The bridge is main in a browser: main's heap policy (heap-policy.ts) applies here too.
  keepHeapSmall()
  // Events may start before the bridge listens; until then there is nobody to tell.
  const relay: { bridge?: RunningBridge } = {}
  const desktop = createBridgeDesktop(
    (notice) => relay.bridge?.emit('app:notification', notice),
    () => relay.bridge,
    { testMode: options.testMode ?? false },
  )
  const services = await createAppServices({
    userDataDir: options.userDataDir,
    keychain: options.keychain ?? new KeytarSecretStore(),
    info: { name: 'Payout Desk', version: process.env['npm_package_version'] ?? '0.0.0', transport: 'bridge' },
    emit: (event, payload) => {
      options.onEvent?.(event, payload)
      relay.bridge?.emit(event, payload)
    },
    desktop,
    ...(options.apiTimeoutMs === undefined ? {} : { apiTimeoutMs: options.apiTimeoutMs }),
    ...(options.teamLeaseSeconds === undefined ? {} : { teamLeaseSeconds: options.teamLeaseSeconds }),
    ...(options.sandboxSettleMs === undefined ? {} : { sandboxSettleMs: options.sandboxSettleMs }),
    ...(options.checkpoints ? { checkpoints: options.checkpoints } : {}),
  })
  const router = createRouter({
    handlers: services.handlers,
    senderPolicy: loggingRefusals(bridgeSenderPolicy, services.log),
    log: services.log,
  })
  const bridge = await startBridge({
    router,
    port: options.port ?? 0,
    ...(options.staticDir ? { staticDir: options.staticDir } : {}),
    ...(options.onResponse ? { onResponse: options.onResponse } : {}),
  })
  relay.bridge = bridge
  return {
    bridge,
    services,
    desktop,
    async close() {
      await bridge.close()
      await services.close()
    },
  }
}
