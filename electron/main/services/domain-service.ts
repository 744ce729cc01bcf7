/** One domain of the app as app-services composes it: its channel handlers and its lifecycle. */
import type { Channel } from '../../../shared/ipc/contract'
import type { HandlersOf } from '../ipc/router'

export interface DomainService<K extends Channel> {
  handlers: HandlersOf<K>
  /** Called once start-up reconciliation is done: resume polling of what is still open. */
  start?(): void
  /** Stops timers and long work; called when the app quits. */
  close?(): Promise<void>
}
