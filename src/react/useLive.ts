/** useLive: useSuspense, kept live by a subscription while mounted (docs/useLive.md). */

import type { ArgsOf, ResponseData } from '../store/createCache.js';
import type { EndpointLike } from '../store/endpoint.js';
import { useSubscribe } from './useSubscription.js';
import { useSuspense } from './useSuspense.js';
import type { ReadEndpoint, SkippableArgs } from './useResponse.js';

/**
 * Returns the endpoint's data for args as `useSuspense` does (fetching and suspending while
 * nothing valid is cached), and subscribes to it while mounted as `useSubscription` does: the
 * data is refetched every `endpoint.pollFrequency` ms, and the component renders again only when
 * an answer changes what it reads.
 *
 * @example
 * ```tsx
 * const getStats = new RestEndpoint({ path: '/stats/:id', schema: Stats, pollFrequency: 2_000 });
 * function LiveStats({ id }: { id: string }) {
 *   const stats = useLive(getStats, { id });
 *   return <p>{stats.last}</p>;
 * }
 * ```
 * @see docs/useLive.md
 */
export function useLive<E extends ReadEndpoint>(endpoint: E, ...args: ArgsOf<E>): ResponseData<E>;
export function useLive<E extends ReadEndpoint>(
  endpoint: E,
  ...args: SkippableArgs<ArgsOf<E>>
): ResponseData<E> | undefined;
export function useLive(endpoint: EndpointLike, ...args: unknown[]): unknown {
  // Subscribed first, so the hook order does not depend on whether useSuspense suspends.
  useSubscribe('useLive', endpoint, args);
  return (useSuspense as (endpoint: EndpointLike, ...args: unknown[]) => unknown)(endpoint, ...args);
}
