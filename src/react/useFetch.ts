/** useFetch: starts the fetch an endpoint's response needs, without suspending (docs/useFetch.md). */

import { useContext } from 'react';
import type { ArgsOf, ResponseData } from '../store/createCache.js';
import type { EndpointLike } from '../store/endpoint.js';
import { useCacheContext } from './CacheProvider.js';
import { noteThrown, ThrownReadsContext } from './thrownReads.js';
import { stillInvalid } from './useSuspense.js';
import { sameOutcome, useResponse, type ReadEndpoint, type SkippableArgs } from './useResponse.js';

/**
 * A promise React's `use()` reads: one already settled says so (`status`, `value` or `reason`),
 * so `use()` returns its value (or throws its error) at once, without suspending.
 */
export type UsablePromise<T> = Promise<T> &
  (
    | { status?: undefined }
    | { status: 'pending' }
    | { status: 'fulfilled'; value: T }
    | { status: 'rejected'; reason: unknown }
  );

/**
 * Fetches when the stored response is missing, stale or invalid, and returns its data as a
 * promise React's `use()` accepts: settled at once with the data shown now (stale data too, while
 * it is refetched in the background), pending while the first load (or a refetch of invalid
 * data) is out, rejected with the error `useSuspense` would throw. `undefined` when the params are
 * `null`. Never suspends or throws itself, so several calls in one component start their requests
 * together: `use()` them after all are made. A rejection nobody reads is not reported as
 * unhandled.
 *
 * @example
 * ```tsx
 * const postsPromise = useFetch(getPosts, { group }); // both requests start now
 * const usersPromise = useFetch(getUsers);
 * const posts = use(postsPromise); // suspends until both are in
 * const users = use(usersPromise);
 * ```
 */
export function useFetch<E extends ReadEndpoint>(endpoint: E, ...args: ArgsOf<E>): UsablePromise<ResponseData<E>>;
export function useFetch<E extends ReadEndpoint>(
  endpoint: E,
  ...args: SkippableArgs<ArgsOf<E>>
): UsablePromise<ResponseData<E>> | undefined;
export function useFetch(endpoint: EndpointLike, ...args: unknown[]): UsablePromise<unknown> | undefined {
  const read = useResponse(useCacheContext('useFetch'), 'useFetch', endpoint, args, sameOutcome, true);
  const thrown = useContext(ThrownReadsContext);
  if (read.key === undefined) return undefined;
  // What useSuspense would do (useSuspense.ts), as a promise use() reads. Written again here, not
  // shared: a shared function cost every bundle with useSuspense 16 B gzip (docs/benchmarks.md).
  const { response, current, request } = read;
  if (current.expiryStatus === 'invalid') {
    if (request) return waiting(request);
    if (read.settledInvalid) {
      noteThrown(thrown, read.key, endpoint, args);
      return settled(false, current.error ?? stillInvalid(read.key));
    }
  }
  const { data, error } = response;
  if (error && data === undefined) {
    noteThrown(thrown, read.key, endpoint, args);
    return settled(false, error);
  }
  return settled(true, data);
}

// One promise per request, data object and error: a component rendered again while it waits
// gets the promise `use()` already knows.
const promises = new WeakMap<object, UsablePromise<unknown>>();

/** The promise of `request`: its data, or its error (as `useSuspense` would throw it). */
function waiting(request: Promise<unknown>): UsablePromise<unknown> {
  let promise = promises.get(request);
  if (!promise) promises.set(request, (promise = handled(request.then(value => value))));
  return promise;
}

/** A promise settled with `value` (fulfilled) or `value` as its error, marked so `use()` reads it at once. */
function settled(fulfilled: boolean, value: unknown): UsablePromise<unknown> {
  let promise = typeof value === 'object' && value !== null ? promises.get(value) : undefined;
  if (promise) return promise;
  promise = Object.assign(handled(fulfilled ? Promise.resolve(value) : Promise.reject(value)), {
    status: fulfilled ? 'fulfilled' : 'rejected',
    [fulfilled ? 'value' : 'reason']: value,
  }) as UsablePromise<unknown>;
  if (typeof value === 'object' && value !== null) promises.set(value, promise);
  return promise;
}

/** `promise`, with its rejection handled: a caller that never reads it is not told of it. */
function handled<T>(promise: Promise<T>): UsablePromise<T> {
  promise.catch(() => {});
  return promise;
}
