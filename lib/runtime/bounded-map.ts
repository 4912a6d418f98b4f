/**
 * A map that holds at most `max` entries, dropping the least recently used one to take another (never all at once:
 * a caller who fills it evicts the oldest entries one by one, not everyone's).
 * @example const m = new BoundedMap<string, string>(2); m.set('a', '1'); m.set('b', '2'); m.get('a'); m.set('c', '3') // 'b' dropped
 */
export class BoundedMap<K, V> {
  private readonly entries = new Map<K, V>()
  constructor(readonly max: number) {}

  get size(): number {
    return this.entries.size
  }

  /** The value, marked as just used. */
  get(key: K): V | undefined {
    const v = this.entries.get(key)
    if (v !== undefined) {
      this.entries.delete(key)
      this.entries.set(key, v)
    }
    return v
  }

  has(key: K): boolean {
    return this.entries.has(key)
  }

  set(key: K, value: V): void {
    this.entries.delete(key)
    if (this.entries.size >= this.max) {
      const oldest = this.entries.keys().next()
      if (!oldest.done) this.entries.delete(oldest.value)
    }
    this.entries.set(key, value)
  }

  clear(): void {
    this.entries.clear()
  }
}
