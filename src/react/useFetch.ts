/** useFetch: starts the fetch an endpoint's response needs, without suspending (docs/useFetch.md). */

import type { ArgsOf, ResponseData } from '../store/createCache.js';
import type { EndpointLike } from '../store/endpoint.js';
import type { ResponseState } from '../store/reads/selectors.js';
import { useCacheContext } from './CacheProvider.js';
import { useResponse, type ReadEndpoint, type SkippableArgs } from './useResponse.js';

/**
 * Fetches when the stored response is missing, stale or invalid, and returns the request's
 * promise; `undefined` when nothing needs fetching or the params are `null`. The promise settles
 * with the data, or `undefined` when the request failed (the error is stored: read it with
 * `useSuspense` or `selectResponse`); it never rejects. Never suspends or throws for data.
 *
 * @example
 * ```tsx
 * // Prefetch the columns of a portfolio the list was not fetched with.
 * useFetch(getPortfolioColumns, portfolio === initial ? null : { portfolio });
 * ```
 */
export function useFetch<E extends ReadEndpoint>(
  endpoint: E,
  ...args: SkippableArgs<ArgsOf<E>>
): Promise<ResponseData<E> | undefined> | undefined;
export function useFetch(endpoint: EndpointLike, ...args: unknown[]): Promise<unknown> | undefined {
  const cache = useCacheContext('useFetch');
  const { request, controller } = useResponse(cache, 'useFetch', endpoint, args, sameDecision, true);
  return request && controller.settled(request);
}

/** The hook renders again only when whether to fetch changes. */
function sameDecision(a: ResponseState, b: ResponseState): boolean {
  return (a.expiryStatus === 'valid') === (b.expiryStatus === 'valid');
}
