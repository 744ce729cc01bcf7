/**
 * One piece of work per key at a time: a second call for a key whose work is under way gets the
 * same promise instead of starting it again (a double click on Send, Retry or Issue sends once).
 */
export class InFlight<T> {
  private readonly running = new Map<string, Promise<T>>()

  run(key: string, work: () => Promise<T>): Promise<T> {
    const running = this.running.get(key)
    if (running) return running
    const started = work().finally(() => this.running.delete(key))
    this.running.set(key, started)
    return started
  }

  has(key: string): boolean {
    return this.running.has(key)
  }
}
