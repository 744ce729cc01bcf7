/**
 * Runs `worker` over `items` with at most `concurrency` at a time; stops taking new items once
 * `shouldStop()`, or once a worker has failed: the lanes still at work finish, then the first
 * failure is thrown (no lane starts new work for a step that has already failed).
 */
export async function runPool<T>(
  items: readonly T[],
  concurrency: number,
  worker: (item: T, index: number) => Promise<void>,
  shouldStop: () => boolean = () => false,
): Promise<void> {
  let next = 0
  let failure: { error: unknown } | null = null
  const lanes = Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, async () => {
    while (next < items.length && !failure && !shouldStop()) {
      const index = next++
      try {
        await worker(items[index]!, index)
      } catch (error) {
        failure ??= { error }
      }
    }
  })
  await Promise.all(lanes)
  if (failure) throw (failure as { error: unknown }).error
}
