/**
 * A bounded map that forgets the least recently used entry first. Each entry carries the stamp of
 * its last use, so a hit writes one number (reads that alternate between keys, ten lenses read in
 * turn, would otherwise move an entry to the end of the map on every hit); the least recently used
 * entry is found by a scan when a new one must make room, which only a miss pays.
 */
export class Lru<K, V> {
  private readonly map = new Map<K, { value: V; used: number }>();
  private clock = 0;

  constructor(readonly capacity: number) {}

  get(key: K): V | undefined {
    const slot = this.map.get(key);
    if (slot === undefined) return undefined;
    slot.used = ++this.clock;
    return slot.value;
  }

  set(key: K, value: V): void {
    const slot = this.map.get(key);
    if (slot !== undefined) {
      slot.value = value;
      slot.used = ++this.clock;
      return;
    }
    if (this.map.size >= this.capacity) {
      if (this.capacity <= 0) return;
      this.evictOldest();
    }
    this.map.set(key, { value, used: ++this.clock });
  }

  delete(key: K): void {
    this.map.delete(key);
  }

  clear(): void {
    this.map.clear();
  }

  get size(): number {
    return this.map.size;
  }

  private evictOldest(): void {
    let oldest: K | undefined;
    let stamp = Infinity;
    for (const [key, slot] of this.map) {
      if (slot.used < stamp) {
        stamp = slot.used;
        oldest = key;
      }
    }
    this.map.delete(oldest as K);
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
