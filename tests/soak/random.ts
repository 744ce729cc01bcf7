/** A seeded generator (mulberry32), so a soak's choices can be replayed from its seed. */
export class Random {
  private state: number

  constructor(seed: number) {
    this.state = seed >>> 0
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0
    let t = this.state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }

  /** An integer from `min` to `max`, both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1))
  }

  chance(p: number): boolean {
    return this.next() < p
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!
  }

  /** One of `options`, each with its weight (a weight of 0 is never picked). */
  weighted<T>(options: ReadonlyArray<readonly [T, number]>): T | null {
    const total = options.reduce((sum, [, weight]) => sum + weight, 0)
    if (total <= 0) return null
    let roll = this.next() * total
    for (const [value, weight] of options) {
      roll -= weight
      if (roll < 0) return value
    }
    return options.at(-1)![0]
  }
}
