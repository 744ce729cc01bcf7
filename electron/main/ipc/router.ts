/**
 * The one checked entry point from the renderer into main. Every transport (Electron IPC, the
 * loopback test bridge) hands requests here; the router refuses unknown channels, untrusted senders
 * and payloads that fail their schema before any service runs, and turns expected failures into
 * `{ ok: false, error }` Results.
 */
import type { z } from 'zod'
import { channels, isChannel } from '../../../shared/ipc/contract'
import type { Channel, ChannelParsedInput, ChannelResult } from '../../../shared/ipc/contract'
import { AppFailure, fail, ok } from '../../../shared/result'
import { maskText, maskValue } from '../services/masking/masking'
import type { Result } from '../../../shared/result'

export type ChannelHandlers = {
  [C in Channel]: (input: ChannelParsedInput<C>) => Promise<ChannelResult<C>> | ChannelResult<C>
}

/** The handlers of one domain's channels (`HandlersOf<keyof typeof payoutChannels>`). */
export type HandlersOf<K extends Channel> = Pick<ChannelHandlers, K>

/** Who sent a request, as its transport saw it. */
export type Sender =
  | { transport: 'electron'; webContentsId: number; frameUrl: string; isMainFrame: boolean }
  | { transport: 'bridge'; origin: string | null }

/** Returns why a sender is refused, or null when it is trusted. Each transport supplies one. */
export type SenderPolicy = (sender: Sender) => string | null

export interface RouterLog {
  error(message: string, detail?: unknown): void
  /** Main's masking (AppLog): applied to every error text and detail before it leaves main. */
  mask?(text: string): string
  maskValue?<T>(value: T): T
}

export interface IpcRouter {
  handle(channel: string, payload: unknown, sender: Sender): Promise<Result<unknown>>
}

export function createRouter(options: {
  handlers: ChannelHandlers
  senderPolicy: SenderPolicy
  log?: RouterLog
}): IpcRouter {
  const { handlers, senderPolicy, log = console } = options
  // Without main's log (unit tests of the router), the patterns and field names still mask.
  const masking: Required<Pick<RouterLog, 'mask' | 'maskValue'>> = {
    mask: 'mask' in log && log.mask ? (text) => log.mask!(text) : (text) => maskText(text),
    maskValue: 'maskValue' in log && log.maskValue ? (value) => log.maskValue!(value) : (value) => maskValue(value),
  }
  /** An expected failure as the renderer gets it: its text and details masked like every log line. */
  const failure = (code: AppFailure['code'], message: string, details?: unknown) =>
    fail(code, masking.mask(message), details === undefined ? details : masking.maskValue(details))
  return {
    async handle(channel, payload, sender) {
      const refusal = senderPolicy(sender)
      if (refusal) return fail('forbidden_sender', `Request refused: ${refusal}.`)
      if (!isChannel(channel)) return fail('unknown_channel', `Unknown channel "${String(channel).slice(0, 80)}".`)

      const schema: z.ZodType = channels[channel].input
      const parsed = schema.safeParse(payload)
      if (!parsed.success) {
        const issues = parsed.error.issues.map((issue) => ({
          path: issue.path.map(String).join('.'),
          message: issue.message,
        }))
        const first = issues[0]
        // Names the field and the problem; the channel goes to details for whoever debugs it.
        const summary = !first
          ? 'Invalid request.'
          : first.path
            ? `Invalid ${first.path}: ${first.message}.`
            : `The request is invalid: ${first.message}.`
        return failure('bad_request', summary, { channel, issues })
      }

      const handler = handlers[channel] as (input: unknown) => Promise<unknown> | unknown
      try {
        return ok(await handler(parsed.data))
      } catch (error) {
        if (error instanceof AppFailure) return failure(error.code, error.message, error.details)
        // A bug: keep the details in main's log, give the renderer a stable message only.
        log.error(`Unexpected failure in ${channel}`, error instanceof Error ? error.stack : error)
        return fail(
          'internal',
          `Something went wrong inside Payout Desk while handling ${channel}; the details are in the app log.`,
        )
      }
    },
  }
}
