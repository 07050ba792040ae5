/** useSuspense: an endpoint's data, suspending while it is missing or invalid (docs/useSuspense.md). */

import { setupError } from '../base/errors.js';
import type { ArgsOf, ResponseData } from '../store/createCache.js';
import type { EndpointLike } from '../store/endpoint.js';
import { useContext } from 'react';
import { useCacheContext } from './CacheProvider.js';
import { noteThrown, ThrownReadsContext } from './thrownReads.js';
import { sameOutcome, useResponse, type ReadEndpoint, type SkippableArgs } from './useResponse.js';

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
  const cache = useCacheContext('useSuspense');
  const thrown = useContext(ThrownReadsContext);
  const read = useResponse(cache, 'useSuspense', endpoint, args, sameOutcome, true);
  const { response, current, request } = read;
  // Background revalidation (stale) needs no handling here: the request is watched, and its
  // failure is stored.
  if (current.expiryStatus === 'invalid') {
    if (request) throw read.controller.settled(request);
    if (read.settledInvalid) {
      noteThrown(thrown, read.key, endpoint, args);
      throw current.error ?? stillInvalid(read.key!);
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

/** STILL_INVALID: the read of `key` was fetched and still reads invalid (useFetch throws it through its promise too). */
export function stillInvalid(key: string): Error {
  return setupError(
    'STILL_INVALID',
    process.env.NODE_ENV !== 'production' && [
      `useSuspense fetched ${key}, and its response still reads as invalid, so suspending again would request it again without end.`,
      "Check what the response normalizes to (a root entity kept deleted by a newer delete cannot be shown) and the endpoint's expiry lengths. controller.invalidate(endpoint, ...args) lets it fetch again.",
    ],
    key,
  );
}
