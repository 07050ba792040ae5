/** What `getOptimisticResponse(snap, ...args)` receives (docs/mutations.md). */

import type { Queried } from '../schema/types.js';

/** The cache as a request starts, for computing its optimistic value. */
export interface OptimisticSnapshot {
  /** Reads the cache as `cache.selectQuery` does (other pending optimistic values included). */
  get<S>(queryable: S, ...args: unknown[]): Queried<S> | undefined;
  /** The request's start stamp: its optimistic write and its answer are ordered by it. */
  readonly fetchedAt: number;
}
