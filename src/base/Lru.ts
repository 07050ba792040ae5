/** An entry of an Lru, in its list from the most recently used to the least. */
interface Slot<K, V> {
  readonly key: K;
  value: V;
  newer: Slot<K, V> | undefined;
  older: Slot<K, V> | undefined;
}

/**
 * A bounded map that forgets the least recently used entry first. Its entries are kept in a list
 * by their last use: a hit moves one entry to the front (a few pointer writes, where moving it in
 * a Map's order means a delete and an insert; reads that alternate between keys, ten lenses read
 * in turn, hit a different entry each time), and a miss that needs room drops the last one.
 * Every operation is O(1).
 */
export class Lru<K, V> {
  /** @internal The entries by key (tests count them: a getter would be in every bundle). */
  readonly map = new Map<K, Slot<K, V>>();
  /** @internal The entry used last (a memo compares a new output with its value). */
  newest: Slot<K, V> | undefined = undefined;
  private oldest: Slot<K, V> | undefined = undefined;

  declare readonly capacity: number;

  constructor(capacity: number) {
    this.capacity = capacity;
  }

  get(key: K): V | undefined {
    const slot = this.map.get(key);
    if (slot === undefined) return undefined;
    if (slot !== this.newest) {
      this.unlink(slot);
      this.link(slot);
    }
    return slot.value;
  }

  set(key: K, value: V): void {
    const slot = this.map.get(key);
    if (slot !== undefined) {
      slot.value = value;
      if (slot !== this.newest) {
        this.unlink(slot);
        this.link(slot);
      }
      return;
    }
    if (this.capacity <= 0) return;
    if (this.map.size >= this.capacity) {
      const oldest = this.oldest!;
      this.unlink(oldest);
      this.map.delete(oldest.key);
    }
    const added: Slot<K, V> = { key, value, newer: undefined, older: undefined };
    this.map.set(key, added);
    this.link(added);
  }

  delete(key: K): void {
    const slot = this.map.get(key);
    if (slot === undefined) return;
    this.unlink(slot);
    this.map.delete(key);
  }

  clear(): void {
    this.map.clear();
    this.newest = this.oldest = undefined;
  }

  /** Puts `slot`, in no list, at the front. */
  private link(slot: Slot<K, V>): void {
    slot.newer = undefined;
    slot.older = this.newest;
    if (this.newest !== undefined) this.newest.newer = slot;
    else this.oldest = slot;
    this.newest = slot;
  }

  /** Takes `slot` out of the list. */
  private unlink(slot: Slot<K, V>): void {
    if (slot.newer !== undefined) slot.newer.older = slot.older;
    else this.newest = slot.older;
    if (slot.older !== undefined) slot.older.newer = slot.newer;
    else this.oldest = slot.newer;
    slot.newer = slot.older = undefined;
  }
}

/**
 * A bounded map for lookups that scan whole tables in order, which defeat an LRU smaller than the
 * table (every lookup would miss): it keeps every entry until it outgrows its bound, then starts
 * empty. Cheaper than an LRU per hit (no reordering).
 */
export class ClearingMap<K, V> {
  /** @internal The entries (tests count them). */
  readonly map = new Map<K, V>();

  declare readonly capacity: number;

  constructor(capacity: number) {
    this.capacity = capacity;
  }

  get(key: K): V | undefined {
    return this.map.get(key);
  }

  set(key: K, value: V): void {
    if (this.map.size >= this.capacity && !this.map.has(key)) this.map.clear();
    this.map.set(key, value);
  }
}
