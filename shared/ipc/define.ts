/** Building blocks of the IPC contract, shared by every domain's channel file. */
import { z } from 'zod'

/** Declares a result type without a runtime value: the contract carries types for main's answers. */
export const returns = <T>(): T => undefined as T

/** The input of a channel that takes none. */
export const noInput = z.undefined()

/**
 * A file handed over by the renderer (drag and drop): its name and its bytes as Base64. Used in
 * both transports alike; files chosen with Open are read by main from the path the dialog gave.
 */
export const droppedFile = z.strictObject({
  name: z.string().min(1).max(255),
  /** 96 MiB of Base64 is 72 MiB of file: far above any payout sheet we accept. */
  base64: z
    .string()
    .max(96 * 1024 * 1024)
    .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'must be Base64'),
})
