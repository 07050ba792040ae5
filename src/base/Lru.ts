/** A bounded map that forgets the least recently used entry first (Map keeps insertion order). */
export class Lru<K, V> {
  private readonly map = new Map<K, V>();

  constructor(readonly capacity: number) {}

  /** The most recently used key: a repeated hit on it (the common case) moves nothing. */
  private newest: K | undefined;

  get(key: K): V | undefined {
    const value = this.map.get(key);
    if (value !== undefined && key !== this.newest) {
      this.map.delete(key);
      this.map.set(key, value);
      this.newest = key;
    }
    return value;
  }

  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    this.newest = key;
    if (this.map.size > this.capacity) this.map.delete(this.map.keys().next().value as K);
  }

  delete(key: K): void {
    this.map.delete(key);
    if (key === this.newest) this.newest = undefined;
  }

  clear(): void {
    this.map.clear();
    this.newest = undefined;
  }

  get size(): number {
    return this.map.size;
  }
}

/**
 * A bounded map for lookups that scan whole tables in order, which defeat an LRU smaller than the
 * table (every lookup would miss): it keeps every entry until it outgrows its bound, then starts
 * empty. Cheaper than an LRU per hit (no reordering).
 */
export class ClearingMap<K, V> {
  private readonly map = new Map<K, V>();

  constructor(readonly capacity: number) {}

  get(key: K): V | undefined {
    return this.map.get(key);
  }

  set(key: K, value: V): void {
    if (this.map.size >= this.capacity && !this.map.has(key)) this.map.clear();
    this.map.set(key, value);
  }

  get size(): number {
    return this.map.size;
  }
}
