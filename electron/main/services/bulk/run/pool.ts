/** Runs `worker` over `items` with at most `concurrency` at a time; stops taking new items once `shouldStop()`. */
export async function runPool<T>(
  items: readonly T[],
  concurrency: number,
  worker: (item: T, index: number) => Promise<void>,
  shouldStop: () => boolean = () => false,
): Promise<void> {
  let next = 0
  const lanes = Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, async () => {
    while (next < items.length && !shouldStop()) {
      const index = next++
      await worker(items[index]!, index)
    }
  })
  await Promise.all(lanes)
}
