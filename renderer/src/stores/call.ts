import type { AppError, Result } from '../../../shared/result'
import type { DroppedFile } from '../../../shared/ipc/files'
import { stageDroppedFile } from '../api'

/**
 * Runs one API call and always hands back a Result. The transports already turn expected failures
 * into Results; this also catches a thrown bug so that no raw exception text ever reaches a screen.
 */
export async function callApi<T>(call: () => Promise<Result<T>>): Promise<Result<T>> {
  try {
    return await call()
  } catch (error) {
    console.error('Unexpected failure in an API call', error)
    const failure: AppError = {
      code: 'internal',
      message:
        'Something went wrong inside the app. Nothing was sent; try again, and restart the app if it keeps happening.',
    }
    return { ok: false, error: failure }
  }
}

/** A file the person dropped, handed over to main (streamed, in a browser), then the call that reads it. */
export async function callWithDroppedFile<T>(
  file: File,
  call: (dropped: DroppedFile) => Promise<Result<T>>,
): Promise<Result<T>> {
  const staged = await callApi(() => stageDroppedFile(file))
  return staged.ok ? callApi(() => call(staged.data)) : staged
}
