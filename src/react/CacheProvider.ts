/**
 * CacheProvider tells the hooks which cache to read. The store comes from react-redux's
 * `<Provider>` above it; one cache can serve several stores (tests, server rendering).
 */

import { createContext, createElement, useContext, type ReactNode } from 'react';
import { setupError } from '../base/errors.js';
import type { Cache } from '../store/createCache.js';

const CacheContext = createContext<Cache<string> | null>(null);
CacheContext.displayName = 'LensCache';

export interface CacheProviderProps {
  cache: Cache<string>;
  children?: ReactNode;
}

/**
 * @example
 * ```tsx
 * <Provider store={store}>
 *   <CacheProvider cache={cache}>
 *     <App />
 *   </CacheProvider>
 * </Provider>
 * ```
 */
export function CacheProvider({ cache, children }: CacheProviderProps): ReactNode {
  return createElement(CacheContext.Provider, { value: cache }, children);
}

/** The cache of the nearest CacheProvider; a clear error without one. */
export function useCacheContext(hook: string): Cache<string> {
  const cache = useContext(CacheContext);
  if (!cache) {
    throw setupError(
      'CACHE_PROVIDER_MISSING',
      process.env.NODE_ENV !== 'production' && [
        `${hook} was called outside a <CacheProvider>, so it does not know which cache to read.`,
        "Wrap the tree in <CacheProvider cache={cache}> inside react-redux's <Provider store={store}>.",
      ],
      hook,
    );
  }
  return cache;
}
