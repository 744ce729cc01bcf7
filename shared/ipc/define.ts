/** Building blocks of the IPC contract, shared by every domain's channel file. */
import { z } from 'zod'
import type { DroppedFile } from './files'

/** Declares a result type without a runtime value: the contract carries types for main's answers. */
export const returns = <T>(): T => undefined as T

/** The input of a channel that takes none. */
export const noInput = z.undefined()

/**
 * A file handed over by the renderer (drag and drop): its name and a reference main reads it by,
 * never its bytes (see files.ts). Files chosen with Open are read by main from the path the
 * dialog gave.
 */
export const droppedFile = z.strictObject({
  name: z.string().min(1).max(255),
  ref: z.string().min(1).max(4096),
}) satisfies z.ZodType<DroppedFile>
