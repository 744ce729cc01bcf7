/**
 * Files on their way between this page and main (a sheet streamed to the bridge in a browser): the
 * transports report each step here and the transfers store shows it. In the installed app a file
 * is read where it is, so nothing is reported.
 */
export interface TransferProgress {
  id: string
  name: string
  /** Bytes sent so far, of `total`. */
  sent: number
  total: number
  done: boolean
}

const listeners = new Set<(progress: TransferProgress) => void>()

export function onTransfer(listener: (progress: TransferProgress) => void): () => void {
  listeners.add(listener)
  return () => {
    listeners.delete(listener)
  }
}

export function reportTransfer(progress: TransferProgress): void {
  for (const listener of listeners) listener(progress)
}
