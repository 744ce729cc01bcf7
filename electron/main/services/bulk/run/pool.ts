/**
 * Runs `worker` over `items` in lanes; stops taking new items once `shouldStop()`, or once a worker
 * has failed: the lanes still at work finish, then the first failure is thrown (no lane starts new
 * work for a step that has already failed).
 *
 * `lanes` is a fixed number, or asked again as each item ends (decision 144): the shared pace's
 * in-flight allowance, so the pool grows a lane when the pace allows one more request and lets a
 * lane go when the pace cut back. A lane never ends mid-item, and the last lane always stays.
 */
export type Lanes = number | (() => number)

export async function runPool<T>(
  items: readonly T[],
  lanes: Lanes,
  worker: (item: T, index: number) => Promise<void>,
  shouldStop: () => boolean = () => false,
): Promise<void> {
  const wanted = (): number => lanesNow(lanes)
  let next = 0
  let active = 0
  let failure: { error: unknown } | null = null
  const more = (): boolean => next < items.length && !failure && !shouldStop()
  const running: Array<Promise<void>> = []
  const lane = async (): Promise<void> => {
    try {
      while (more()) {
        const index = next++
        try {
          await worker(items[index]!, index)
        } catch (error) {
          failure ??= { error }
        }
        // The pace cut back: this lane goes (never the last one).
        if (active > wanted()) return
        open()
      }
    } finally {
      active--
    }
  }
  const open = (): void => {
    const target = Math.min(wanted(), items.length)
    while (active < target && more()) {
      active++
      running.push(lane())
    }
  }
  open()
  // Lanes opened later are pushed while earlier ones still run: wait until none is left.
  for (let waited = 0; waited < running.length; waited++) await running[waited]
  if (failure) throw (failure as { error: unknown }).error
}

/**
 * A pool's lanes: the pace's allowance when the profile's client has a pace, else `fixed` (decision
 * 144), and a quarter more beside it (decision 181). A lane does part of each item before and after
 * its request (a batch's answer applied to its rows, its progress told) while main also does
 * everything else; with one lane per place, a place stood empty meanwhile, and a 100,000-row
 * submission kept 29 of 32 in flight. The lanes beyond wait at the pace with their request ready,
 * and leave as a place frees: the pace alone decides how many are in flight.
 */
export function pacedLanes(pace: { allowance(): number } | undefined, fixed: number): Lanes {
  return pace ? () => withReadyLanes(pace.allowance()) : fixed
}

/** The allowance and the lanes kept ready beside it: a quarter more, at least one. */
function withReadyLanes(allowance: number): number {
  return allowance + Math.max(1, Math.ceil(allowance / 4))
}

/** How many lanes a pool has now. */
export function lanesNow(lanes: Lanes): number {
  return Math.max(1, Math.floor(typeof lanes === 'number' ? lanes : lanes()))
}
