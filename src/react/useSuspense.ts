/** useSuspense: an endpoint's data, suspending while it is missing or invalid (BEHAVIOR §14). */

import type { ArgsOf, ResponseData } from '../store/createCache.js';
import type { EndpointLike } from '../store/endpoint.js';
import type { ResponseState } from '../store/selectors.js';
import { useCacheContext } from './CacheProvider.js';
import { settledOf, useResponse, type SkippableArgs } from './response.js';

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
export function useSuspense<E extends EndpointLike>(endpoint: E, ...args: ArgsOf<E>): ResponseData<E>;
export function useSuspense<E extends EndpointLike>(endpoint: E, ...args: SkippableArgs<ArgsOf<E>>): ResponseData<E> | undefined;
export function useSuspense(endpoint: EndpointLike, ...args: unknown[]): unknown {
  const cache = useCacheContext('useSuspense');
  const { response, request } = useResponse(cache, 'useSuspense', endpoint, args, sameOutcome, true);
  if (response.expiryStatus === 'invalid' && request) throw settledOf(request);
  const { data, error } = response;
  // A soft error (a server error while data is stored) keeps showing the data; any other throws.
  if (error && !(isServerError(error) && data !== undefined)) throw error;
  return data;
}

/** The render depends on the data, the error, and whether it must fetch or suspend; not on `expiresAt`. */
function sameOutcome(a: ResponseState, b: ResponseState): boolean {
  return a.data === b.data && a.error === b.error && a.expiryStatus === b.expiryStatus;
}

function isServerError(error: Error): boolean {
  const status = (error as { status?: unknown }).status;
  return typeof status === 'number' && status >= 500;
}
