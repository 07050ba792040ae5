/** useSuspense: an endpoint's data, suspending while it is missing or invalid (docs/useSuspense.md). */

import { setupError } from '../base/errors.js';
import type { ArgsOf, ResponseData } from '../store/createCache.js';
import type { EndpointLike } from '../store/endpoint.js';
import { useContext } from 'react';
import { useCacheContext } from './CacheProvider.js';
import { noteThrown, ThrownReadsContext, type ThrownReads } from './thrownReads.js';
import { sameOutcome, useResponse, type ReadEndpoint, type ResponseRead, type SkippableArgs } from './useResponse.js';

/**
 * Returns the endpoint's data for args. While nothing valid is cached it fetches and suspends
 * (throws the request's promise to the nearest `<Suspense>`); a stored error is thrown to the
 * nearest error boundary; stale data is returned at once and revalidated in the background.
 * `null` params skip: `undefined`, with no fetch.
 *
 * @example
 * ```tsx
 * function Posts({ group }: { group: string }) {
 *   const posts = useSuspense(getPosts, { group }); // Post[]
 *   return <ul>{posts.map(post => <li key={post.id}>{post.title}</li>)}</ul>;
 * }
 * ```
 */
export function useSuspense<E extends ReadEndpoint>(endpoint: E, ...args: ArgsOf<E>): ResponseData<E>;
export function useSuspense<E extends ReadEndpoint>(
  endpoint: E,
  ...args: SkippableArgs<ArgsOf<E>>
): ResponseData<E> | undefined;
export function useSuspense(endpoint: EndpointLike, ...args: unknown[]): unknown {
  const read = useResponse(useCacheContext('useSuspense'), 'useSuspense', endpoint, args, sameOutcome, true);
  return suspenseData(read, useContext(ThrownReadsContext), endpoint, args, request => {
    throw read.controller.settled(request);
  });
}

/**
 * What a Suspense read of `read` gives: the data (stale data too, revalidated in the background);
 * for the first load, or a refetch of invalid data, what `wait(request)` returns (useSuspense
 * throws, `use(useFetch())` gets a promise: useFetch.ts); a stored error is thrown.
 */
export function suspenseData(
  read: ResponseRead,
  thrown: ThrownReads | null,
  endpoint: EndpointLike,
  args: readonly unknown[],
  wait: (request: Promise<unknown>) => unknown,
): unknown {
  const { response, current, request } = read;
  // Background revalidation (stale) needs no handling here: the request is watched, and its
  // failure is stored.
  if (current.expiryStatus === 'invalid') {
    if (request) return wait(request);
    if (read.settledInvalid) {
      noteThrown(thrown, read.key, endpoint, args);
      throw (
        current.error ??
        setupError(
          'STILL_INVALID',
          process.env.NODE_ENV !== 'production' && [
            `useSuspense fetched ${read.key}, and its response still reads as invalid, so suspending again would request it again without end.`,
            "Check what the response normalizes to (a root entity kept deleted by a newer delete cannot be shown) and the endpoint's expiry lengths. controller.invalidate(endpoint, ...args) lets it fetch again.",
          ],
          read.key,
        )
      );
    }
  }
  const { data, error } = response;
  // A failure never takes shown data away (a refetch, a poll, a revalidation that failed): the
  // error is readable beside it (docs/hooks.md#errors). Only a key with no usable data throws.
  if (error && data === undefined) {
    noteThrown(thrown, read.key, endpoint, args);
    throw error;
  }
  return data;
}
