/**
 * The preload's step before a call leaves for main, for the channels that take a dropped file
 * (see files.ts): the reference it issued for a File is replaced by the file's path, and a
 * reference it did not issue (a path a page made up) is refused. Which channels those are, and
 * where the file sits in their input, is read from the contract, not listed by name.
 */
import { channelNames, channels } from './contract'
import type { Channel } from './contract'
import { droppedFile } from './define'

/** Each channel that takes a dropped file: null when the input is the file, else its field. */
export const DROPPED_FILE_PLACES: ReadonlyMap<Channel, string | null> = new Map(
  channelNames.flatMap((channel): Array<[Channel, string | null]> => {
    const input = channels[channel].input as unknown
    if (input === droppedFile) return [[channel, null]]
    const shape = (input as { shape?: Record<string, unknown> }).shape ?? {}
    const field = Object.keys(shape).find((key) => shape[key] === droppedFile)
    return field === undefined ? [] : [[channel, field]]
  }),
)

export type DroppedPathSwap =
  { ok: true; input: unknown } | { ok: false; error: { code: 'bad_request'; message: string } }

export function swapDroppedPath(channel: Channel, input: unknown, issued: Map<string, string>): DroppedPathSwap {
  const place = DROPPED_FILE_PLACES.get(channel)
  if (place === undefined) return { ok: true, input }
  const holder = typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {}
  const file = place === null ? input : holder[place]
  const ref = typeof file === 'object' && file !== null ? (file as { ref?: unknown }).ref : undefined
  const path = typeof ref === 'string' ? issued.get(ref) : undefined
  if (path === undefined) {
    return {
      ok: false,
      error: { code: 'bad_request', message: 'That file was not dropped in this window; drop it again.' },
    }
  }
  issued.delete(ref as string)
  const withPath = { ...(file as object), ref: path }
  return { ok: true, input: place === null ? withPath : { ...holder, [place]: withPath } }
}
