/**
 * React Testing Library's `render` and `renderHook` under a test store (docs/testing.md): a
 * store of the cache whose requests the fixtures answer, a react-redux `<Provider>` and a
 * `<CacheProvider>` around what is rendered.
 */

import { configureStore, type EnhancedStore, type Reducer } from '@reduxjs/toolkit';
import {
  render,
  renderHook,
  type RenderHookOptions,
  type RenderHookResult,
  type RenderOptions,
  type RenderResult,
} from '@testing-library/react';
import { createElement, Suspense, type JSXElementConstructor, type ReactNode } from 'react';
import { Provider } from 'react-redux';
import { CacheProvider } from '../react/CacheProvider.js';
import type { RequestOptions } from '../rest/requestContext.js';
import type { Cache } from '../store/Cache.js';
import { createCache } from '../store/createCache.js';
import type { Controller } from '../store/runtime/Controller.js';
import { checkFixtures, type FixtureLike } from './fixtures.js';
import { mockFetch } from './mockFetch.js';
import { mockInitialState } from './mockInitialState.js';

/** The store and cache options of `renderWithCache` and `renderCacheHook`. */
export interface CacheTestOptions<P extends string = 'cache'> {
  /** Fixtures and interceptors that answer the requests made while rendered; any other request fails with FIXTURE_MISSING. */
  fixtures?: readonly FixtureLike[] | undefined;
  /** Fixtures whose answers are in the store before the first render (`mockInitialState`): no request is made for them. */
  initialFixtures?: readonly FixtureLike[] | undefined;
  /** The app's cache (default: a new `createCache()`). */
  cache?: Cache<P> | undefined;
  /** The app's other slices, mounted beside the cache's. */
  reducer?: Record<string, Reducer> | undefined;
  /** The store's other request options (`baseUrl`, `prepareHeaders`...); `fetch` is the fixtures'. */
  requestOptions?: Omit<RequestOptions, 'fetch'> | undefined;
}

/** What the helpers add to React Testing Library's result. */
export interface CacheTestResult<P extends string = 'cache'> {
  /** The test's store. */
  store: EnhancedStore;
  /** The store's Controller (`cache.controller(store)`): fetch, set and invalidate from the test. */
  controller: Controller<P>;
  cache: Cache<P>;
}

type Wrapper = JSXElementConstructor<{ children: ReactNode }>;

function setup<P extends string>(options: CacheTestOptions<P>, inner: Wrapper | undefined, suspense: boolean) {
  const cache = options.cache ?? (createCache() as unknown as Cache<P>);
  const fetch = mockFetch(checkFixtures(options.fixtures ?? [], 'fixtures'));
  const initial = options.initialFixtures;
  const store = configureStore({
    reducer: { ...options.reducer, [cache.reducerPath]: cache.reducer },
    middleware: getDefault => getDefault().concat(cache.middlewareWith({ ...options.requestOptions, fetch })),
    ...(initial === undefined ? {} : { preloadedState: mockInitialState(initial, cache) as never }),
  }) as EnhancedStore;
  const wrapper: Wrapper = ({ children }) => {
    const content = inner ? createElement(inner, null, children) : children;
    const cached = createElement(
      CacheProvider,
      { cache },
      suspense ? createElement(Suspense, { fallback: null }, content) : content,
    );
    return createElement(Provider, { store, children: cached });
  };
  return { cache, store, controller: cache.controller(store), wrapper };
}

/**
 * Renders `ui` with React Testing Library inside a test store's providers: the cache's requests
 * are answered by `fixtures`, `initialFixtures` are in the store from the start. Returns RTL's
 * result with the `store`, its `controller` and the `cache`. A `wrapper` given goes inside the
 * providers (it may use the hooks); `rerender` keeps the providers.
 *
 * @example
 * ```tsx
 * const { findByText } = renderWithCache(<PostTitle id="1" />, {
 *   cache,
 *   fixtures: [{ endpoint: getPost, args: [{ id: '1' }], response: { id: '1', title: 'Hello' } }],
 * });
 * await findByText('Hello');
 * ```
 */
export function renderWithCache<P extends string = 'cache'>(
  ui: ReactNode,
  options: CacheTestOptions<P> & Omit<RenderOptions, 'queries'> = {},
): RenderResult & CacheTestResult<P> {
  const { fixtures, initialFixtures, cache, reducer, requestOptions, wrapper, ...rest } = options;
  const made = setup({ fixtures, initialFixtures, cache, reducer, requestOptions }, wrapper, false);
  const rendered = render(ui, { ...rest, wrapper: made.wrapper });
  return Object.assign(rendered, { store: made.store, controller: made.controller, cache: made.cache });
}

/**
 * Renders `hook` with React Testing Library's `renderHook` inside a test store's providers and a
 * `<Suspense>`: `result.current` is `null` while the hook suspends, then what it returns (wait
 * for it with `waitFor`). Options and result as `renderWithCache`'s, with `initialProps`.
 *
 * @example
 * ```ts
 * const { result } = renderCacheHook(() => useSuspense(getPost, { id: '1' }), { cache, fixtures });
 * await waitFor(() => expect(result.current?.title).toBe('Hello'));
 * ```
 */
export function renderCacheHook<Result, Props = undefined, P extends string = 'cache'>(
  hook: (props: Props) => Result,
  options: CacheTestOptions<P> & Omit<RenderHookOptions<Props>, 'queries'> = {},
): RenderHookResult<Result | null, Props> & CacheTestResult<P> {
  const { fixtures, initialFixtures, cache, reducer, requestOptions, wrapper, ...rest } = options;
  const made = setup({ fixtures, initialFixtures, cache, reducer, requestOptions }, wrapper, true);
  const rendered = renderHook(hook, { ...rest, wrapper: made.wrapper } as RenderHookOptions<Props>);
  return Object.assign(rendered as RenderHookResult<Result | null, Props>, {
    store: made.store,
    controller: made.controller,
    cache: made.cache,
  });
}
