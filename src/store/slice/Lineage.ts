/**
 * Which slices descend from one another by the cache's own writes. The reducer passes a slice's
 * lineage on to the slice each write makes; a slice that came from anywhere else (next-redux-
 * wrapper's HYDRATE, redux-persist's REHYDRATE, a DevTools import or jump) starts a new one. The
 * optimistic ledger keeps the confirmed rows under its guesses for one lineage only: in a new one
 * it rebases them on the new slice (docs/mutations.md, "State replaced from outside").
 */

import type { CacheState } from '../../base/state.js';

export class Lineage {
  /** Weakly by slice: one token per lineage, shared by its slices. */
  private readonly tokens = new WeakMap<CacheState, object>();

  of(slice: CacheState): object {
    let token = this.tokens.get(slice);
    if (token === undefined) this.tokens.set(slice, (token = {}));
    return token;
  }

  /** `to` was written over `from` by one of the cache's actions. */
  carry(from: CacheState, to: CacheState): void {
    if (from !== to) this.tokens.set(to, this.of(from));
  }
}
