/** useDLE: an endpoint's data, loading state and error, without Suspense (docs/useDLE.md). */

import { useCallback, useMemo, useSyncExternalStore } from 'react';
import { setupError } from '../base/errors.js';
import type { ArgsOf, ResponseData } from '../store/createCache.js';
import type { EndpointLike } from '../store/endpoint.js';
import { useCacheContext } from './CacheProvider.js';
import { sameOutcome, useResponse, type ReadEndpoint, type SkippableArgs } from './useResponse.js';

/** What `useDLE` returns: the data (when any is usable), whether it is being fetched, and the stored error. */
export interface DLE<T> {
  data: T | undefined;
  /** True while nothing usable is cached and the request for it is in flight. */
  loading: boolean;
  /**
   * True while a request for these args is in flight, whatever is shown: the first load, and a
   * refetch (revalidation, a poll, refetch on focus) with the previous value kept (RTK Query's `isFetching`).
   */
  fetching: boolean;
  error: Error | undefined;
}

/**
 * Fetches like `useSuspense` (missing or invalid: fetch; stale: show and revalidate), but never
 * suspends and never throws for data: it returns `{ data, loading, error }` and renders again as
 * they change. `null` params skip (`{ data: undefined, loading: false, error: undefined }`).
 *
 * @example
 * ```tsx
 * function Post({ id }: { id: string }) {
 *   const { data, loading, error } = useDLE(getPost, { id });
 *   if (error) return <p role="alert">{error.message}</p>;
 *   if (loading || !data) return <p>Loading…</p>;
 *   return <h1>{data.title}</h1>;
 * }
 * ```
 */
export function useDLE<E extends ReadEndpoint>(endpoint: E, ...args: SkippableArgs<ArgsOf<E>>): DLE<ResponseData<E>>;
export function useDLE(endpoint: EndpointLike, ...args: unknown[]): DLE<unknown> {
  const cache = useCacheContext('useDLE');
  const read = useResponse(cache, 'useDLE', endpoint, args, sameOutcome, true);
  const { response, current } = read;
  let error = response.error;
  // A request that settled and left the response invalid is not sent again (docs/store.md, "A
  // request that cannot help"); useSuspense throws this error, useDLE returns it.
  if (!error && read.settledInvalid && current.expiryStatus === 'invalid') {
    error = setupError(
      'STILL_INVALID',
      process.env.NODE_ENV !== 'production' && [
        `useDLE fetched ${read.key}, and its response still reads as invalid, so fetching again would request it again without end.`,
        "Check what the response normalizes to and the endpoint's expiry lengths. controller.invalidate(endpoint, ...args) lets it fetch again.",
      ],
      read.key,
    );
  }
  const loading = read.key !== undefined && error === undefined && response.expiryStatus === 'invalid';
  const { data } = response;
  const { controller, key } = read;
  const isFetching = useCallback(
    () => key !== undefined && controller.isFetching(endpoint, ...(args as never[])),
    // `args` is represented by the request key.
    [controller, endpoint, key],
  );
  const fetching = useSyncExternalStore(controller.subscribeFetching, isFetching, isFetching);
  return useMemo(() => ({ data, loading, fetching, error }), [data, loading, fetching, error]);
}
