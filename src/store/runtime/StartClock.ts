/**
 * Start stamps: the order in which writes and requests started, as one number per write
 * (`fetchedAt`). Everything the cache orders by (which of two answers wins, whether an answer is
 * older than an invalidation or a reset) compares these stamps, never arrival times.
 *
 * A stamp is the wall clock (`Date.now()`), raised when needed so that it is later than every
 * stamp this store gave before (two starts in the same millisecond are still ordered) and no
 * earlier than any stamp already in the slice (data handed over at hydration by a server whose
 * clock runs ahead never outranks a request the browser starts after it). It is a hybrid logical
 * clock: it runs ahead of the wall clock only while something forces it to. See
 * docs/architecture.md, "Ordering".
 */

import type { CacheState } from '../../base/state.js';

/**
 * The highest start stamp held by each slice, for one cache. The reducer carries it from slice
 * to slice as writes land (an O(1) step); a slice it did not make (restored from JSON) is scanned
 * once. Keyed weakly by the slice, so it holds nothing the store has let go.
 */
export class HighWater {
  private readonly known = new WeakMap<object, number>();

  of(slice: CacheState): number {
    let high = this.known.get(slice);
    if (high === undefined) this.known.set(slice, (high = scan(slice)));
    return high;
  }

  /** `to` is `from` after a write whose stamp is `start` (none for a write that adds no stamp). */
  carry(from: CacheState, to: CacheState, start: number | undefined): void {
    if (from === to) return;
    const high = this.known.get(from);
    if (high === undefined) return;
    this.known.set(to, typeof start === 'number' && start > high ? start : high);
  }
}

function scan(slice: CacheState): number {
  let high = stampOf(slice.lastReset);
  for (const key of Object.keys(slice.meta)) high = Math.max(high, stampOf(slice.meta[key]?.fetchedAt));
  for (const table of Object.keys(slice.entitiesMeta)) {
    const metas = slice.entitiesMeta[table]!;
    let last: unknown;
    for (const key of Object.keys(metas)) {
      const meta = metas[key];
      // The rows of one write share one meta object: skip the repeats cheaply.
      if (meta === last) continue;
      last = meta;
      high = Math.max(high, stampOf(meta?.fetchedAt));
    }
  }
  return high;
}

/** A stamp the clock can count up from; any other (restored state with `1e300`) is not followed. */
function stampOf(value: unknown): number {
  return typeof value === 'number' && Math.abs(value) <= Number.MAX_SAFE_INTEGER ? value : 0;
}
