/**
 * The liveData feature (docs/live-data.md): subscriptions polled by each store's Pollers, and
 * refetching on window focus and coming back online. `subscribe` and `setupListeners` below are
 * the free forms of `cache.subscribe` and `cache.setupListeners`, for code that has the store
 * (or its `dispatch`) but not the cache. Streams (stream.ts) need no feature: they write with
 * the Controller.
 */

import { describe, setupError } from '../../../base/errors.js';
import type { ListenerOptions } from '../../runtime/Feature.js';
import { featureMissing } from '../../endpoint.js';
import type { Feature, StoreRuntime } from '../../runtime/StoreRuntime.js';
import { RUNTIMES } from '../../slice/middleware.js';
import type { ArgsOf, StoreLike } from '../../types.js';
import type { EndpointLike } from '../../endpoint.js';
import { Pollers } from './Pollers.js';
import { setupListeners as listen, subscribe as subscribeIn } from './subscribe.js';

/** Live data: install with `createLeanCache({ features: [liveData] })` (createCache has it). */
export const liveData: Feature<'liveData'> = {
  name: 'liveData',
  install(runtime) {
    const pollers = new Pollers();
    return {
      api: {
        subscribe: (endpoint: EndpointLike, args: readonly unknown[]) => subscribeIn(runtime, pollers, endpoint, args),
        setupListeners: (options?: ListenerOptions) => listen(runtime, options),
        pollers,
      },
    };
  },
};

/**
 * Subscribes to `endpoint` for args in `store`, as `cache.subscribe(store, ...)` does, in the one
 * cache with live data the store has. Returns `unsubscribe()`.
 *
 * @example
 * ```ts
 * const unsubscribe = subscribe(store, getQuote, { symbol: 'BTC' }); // polled every getQuote.pollFrequency ms
 * ```
 */
export function subscribe<E extends EndpointLike>(
  store: StoreLike,
  endpoint: E,
  ...args: ArgsOf<E> | [null]
): () => void {
  const live = liveIn(store.dispatch, 'subscribe');
  if (live.length > 1) {
    throw setupError(
      'INVALID_OPTION',
      process.env.NODE_ENV !== 'production' && [
        `subscribe(store, ${describe(endpoint)}) found ${live.length} caches with live data in the store, and cannot tell which one to subscribe in.`,
        'Use the cache’s own: cache.subscribe(store, endpoint, ...args).',
      ],
    );
  }
  return live[0]!.controller.subscribe(endpoint, ...args);
}

/**
 * Refetches what each cache with live data in the store holds, and is stale or invalid, when the
 * window regains focus or comes back online (RTK Query's `setupListeners(dispatch)`). Takes the
 * store or its `dispatch`. Returns `remove()`; does nothing without a window.
 */
export function setupListeners(store: StoreLike | StoreLike['dispatch'], options?: ListenerOptions): () => void {
  const dispatch = typeof store === 'function' ? store : store.dispatch;
  const removes = liveIn(dispatch, 'setupListeners').map(runtime => runtime.controller.setupListeners(options));
  return () => {
    for (const remove of removes.splice(0)) remove();
  };
}

/** The runtimes of the caches mounted in the store that have live data; a set-up error when none has. */
function liveIn(dispatch: StoreLike['dispatch'], use: string): StoreRuntime[] {
  const found: unknown = dispatch({ type: RUNTIMES });
  const runtimes = (Array.isArray(found) ? found : []) as StoreRuntime[];
  const live = runtimes.filter(runtime => runtime.features.names.has('liveData'));
  if (live.length > 0) return live;
  if (runtimes.length > 0) throw featureMissing('liveData', use);
  throw setupError(
    'MIDDLEWARE_MISSING',
    process.env.NODE_ENV !== 'production' && [
      `${use} found no cache middleware in the store it was given.`,
      'Add the cache’s middleware: configureStore({ ..., middleware: getDefault => getDefault().concat(cache.middleware) }).',
    ],
  );
}
