/** useQuery: any queryable read from the cache, never fetching . */

import { useEffect, useMemo } from 'react';
import { useSelector, useStore } from 'react-redux';
import { argsKey, isSkipArgs } from '../base/json.js';
import type { Queried } from '../schema/types.js';
import { internalsOf } from '../store/createCache.js';
import { useCacheContext } from './CacheProvider.js';
import { unlessSliceChanged } from './useResponse.js';

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
  // Args are compared by value: inline object literals keep the same selector.
  // The memo key is computed once per args, not once per store change.
  const key = argsKey(args);
  const selector = useMemo(() => {
    const reads = internalsOf(cache);
    return unlessSliceChanged(cache, state => reads.query(state, queryable, args, key) as Queried<S> | undefined);
  }, [cache, queryable, key]);
  const controller = cache.controller(useStore());
  const held = !isSkipArgs(args) && (typeof queryable === 'object' || typeof queryable === 'function');
  // Held while mounted: garbage collection keeps what it reads.
  useEffect(
    () => (held ? controller.retainQuery(queryable as object, ...args) : undefined),
    // `args` is represented by its memo key.
    [controller, queryable, key, held],
  );
  return useSelector(selector);
}
