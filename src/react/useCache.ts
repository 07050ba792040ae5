/** useCache: an endpoint's stored data, without fetching (docs/useCache.md). */

import type { ArgsOf, ResponseData } from '../store/createCache.js';
import type { EndpointLike } from '../store/endpoint.js';
import type { ResponseState } from '../store/reads/selectors.js';
import { useCacheContext } from './CacheProvider.js';
import { useResponse, type SkippableArgs } from './useResponse.js';

/**
 * The endpoint's data for args as stored, stale or not; `undefined` where `useSuspense` would
 * suspend (nothing usable cached, or invalidated) and for `null` params. Never fetches.
 *
 * @example
 * ```tsx
 * const user = useCache(getCurrentUser); // User | undefined: shown once something fetched it
 * ```
 */
export function useCache<E extends EndpointLike>(
  endpoint: E,
  ...args: SkippableArgs<ArgsOf<E>>
): ResponseData<E> | undefined;
export function useCache(endpoint: EndpointLike, ...args: unknown[]): unknown {
  const cache = useCacheContext('useCache');
  const { response, current } = useResponse(cache, 'useCache', endpoint, args, sameData, false);
  return current.expiryStatus === 'invalid' ? undefined : response.data;
}

function sameData(a: ResponseState, b: ResponseState): boolean {
  return a.data === b.data && (a.expiryStatus === 'invalid') === (b.expiryStatus === 'invalid');
}
