/** useSubscription: keeps an endpoint's response live while mounted, without reading it (docs/useSubscription.md). */

import { useEffect } from 'react';
import { useStore } from 'react-redux';
import { describe, setupError } from '../base/errors.js';
import { argsKey, isSkipArgs } from '../base/json.js';
import type { ArgsOf } from '../store/createCache.js';
import type { EndpointLike } from '../store/endpoint.js';
import { useCacheContext } from './CacheProvider.js';
import type { ReadEndpoint, SkippableArgs } from './useResponse.js';

/**
 * Subscribes to `endpoint` for args while the component is mounted: the request key is polled
 * every `endpoint.pollFrequency` ms, by one poller per key whatever the number of subscribers (at
 * the shortest frequency any of them asks), which stops when the last one unmounts. It reads
 * nothing, never suspends and never throws for data: pair it with a reading hook, or use
 * `useLive`. `null` params subscribe to nothing.
 *
 * @example
 * ```tsx
 * const getPrice = new RestEndpoint({ path: '/prices/:id', schema: Price, pollFrequency: 5_000 });
 * function PriceTag({ id }: { id: string }) {
 *   useSubscription(getPrice, { id });
 *   const price = useCache(getPrice, { id });
 *   return <span>{price?.value ?? '…'}</span>;
 * }
 * ```
 * @see docs/useSubscription.md
 */
export function useSubscription<E extends ReadEndpoint>(endpoint: E, ...args: SkippableArgs<ArgsOf<E>>): void;
export function useSubscription(endpoint: EndpointLike, ...args: unknown[]): void {
  useSubscribe('useSubscription', endpoint, args);
}

/** What useSubscription and useLive share: the subscription, made in an effect and ended in its cleanup. */
export function useSubscribe(hook: string, endpoint: EndpointLike, args: readonly unknown[]): void {
  const cache = useCacheContext(hook);
  const store = useStore();
  if (endpoint.sideEffect) {
    throw setupError(
      'MUTATION_IN_HOOK',
      process.env.NODE_ENV !== 'production' && [
        `${hook} was given ${describe(endpoint)}, a mutation: polling it would send the mutation again every period.`,
        'Subscribe to reads only. Send mutations from an event handler with useMutation(endpoint) (or useController().fetch(endpoint, ...args)).',
      ],
    );
  }
  // Args are compared by value, so inline object literals do not subscribe anew on every render.
  const memoKey = isSkipArgs(args) ? null : argsKey(args);
  useEffect(
    () => (memoKey === null ? undefined : cache.subscribe(store, endpoint, ...(args as never[]))),
    // `args` is represented by its memo key.
    [cache, store, endpoint, memoKey],
  );
}
