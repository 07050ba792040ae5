/** useQuery: any queryable read from the cache, never fetching (BEHAVIOR §14). */

import { useMemo } from 'react';
import { useSelector } from 'react-redux';
import { argsKey } from '../shared/json.js';
import type { Queried } from '../schema/types.js';
import { internalsOf } from '../store/createCache.js';
import { useCacheContext } from './CacheProvider.js';
import { unlessSliceChanged } from './response.js';

/**
 * `cache.selectQuery` for the store in context: the denormalized value, or `undefined` when it
 * is absent, deleted, or the lens is bad, and for `null` params. Never fetches, suspends or
 * throws for data. Re-renders only when its own result is a new object: unrelated writes, other
 * entities and meta-only changes render nothing.
 *
 * @example
 * ```tsx
 * const posts = useQuery(sortedPosts, { group: 'react', orderBy: 'title' }); // Post[] | undefined
 * const userCount = useQuery(userCount); // number | undefined
 * ```
 */
export function useQuery<S>(queryable: S, ...args: unknown[]): Queried<S> | undefined {
  const cache = useCacheContext('useQuery');
  // Args are compared by value (§14): inline object literals keep the same selector.
  // The memo key is computed once per args, not once per store change.
  const key = argsKey(args);
  const selector = useMemo(() => {
    const reads = internalsOf(cache);
    return unlessSliceChanged(cache, state => reads.query(state, queryable, args, key) as Queried<S> | undefined);
  }, [cache, queryable, key]);
  return useSelector(selector);
}
