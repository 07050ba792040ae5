/**
 * createCache: a cache with every feature (docs/getting-started.md). An app that leaves some out
 * builds its cache with createLeanCache (docs/features.md).
 */

import type { Cache, CacheOptions } from './Cache.js';
import { createLeanCache } from './createLeanCache.js';
import { garbageCollection, liveData, optimisticUpdates, pagination, retries } from './features/index.js';

export type { ArgsOf, Cache, CacheInternals, CacheOptions, KeyFilter, ResponseData } from './Cache.js';
export { internalsOf } from './Cache.js';
export type { CacheThunk } from './slice/middleware.js';
export type { ListenerOptions } from './runtime/Feature.js';

/** Every feature, as createCache installs them. */
const ALL = [garbageCollection, liveData, optimisticUpdates, retries, pagination];

/**
 * Creates a cache with every feature: mount `reducer` at `reducerPath` and add `middleware`.
 *
 * @example
 * ```ts
 * const cache = createCache();
 * const store = configureStore({
 *   reducer: { [cache.reducerPath]: cache.reducer },
 *   middleware: getDefault => getDefault().concat(cache.middleware),
 * });
 * store.dispatch(cache.set(Post, { id: '1', title: 'Hello' }));
 * cache.selectQuery(store.getState(), Post, '1'); // Post { id: '1', title: 'Hello' }
 * ```
 */
export function createCache<P extends string = 'cache'>(options: CacheOptions<P> = {}): Cache<P> {
  return createLeanCache({ ...options, features: ALL });
}
