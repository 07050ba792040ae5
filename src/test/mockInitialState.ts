/**
 * A store's starting state with fixtures already answered (docs/testing.md): what a component
 * reads renders at once, with no request made.
 */

import { configureStore } from '@reduxjs/toolkit';
import { NetworkError } from '../rest/NetworkError.js';
import type { Cache } from '../store/Cache.js';
import { createCache } from '../store/createCache.js';
import type { EndpointLike } from '../store/endpoint.js';
import { checkFixtures, isInterceptor, type Fixture, type FixtureLike } from './fixtures.js';
import { failureBody, responseOf } from './mockFetch.js';

/**
 * The `preloadedState` of a store whose cache holds each fixture's answer, as if it had just been
 * fetched: `{ [cache.reducerPath]: slice }`. The answers are written by `cache` (its reducerPath
 * and its expiry defaults; default: a new `createCache()`, at `'cache'`), so the app's cache must
 * be given when it has options of its own. A fixture's `error` is stored as the request's error
 * (with a `status`: the NetworkError a refusal gives). Interceptors answer requests only and are
 * skipped here. Throws what a write of the answer throws (a response that does not fit the schema).
 *
 * @example
 * ```ts
 * const store = configureStore({
 *   reducer: { [cache.reducerPath]: cache.reducer },
 *   middleware: getDefault => getDefault().concat(cache.middleware),
 *   preloadedState: mockInitialState([{ endpoint: getPost, args: [{ id: '1' }], response: post }], cache),
 * });
 * ```
 */
export function mockInitialState<P extends string = 'cache'>(
  fixtures: readonly FixtureLike[],
  cache: Cache<P> = createCache() as unknown as Cache<P>,
): { [K in P]: ReturnType<Cache<P>['reducer']> } {
  const list = checkFixtures(fixtures, 'mockInitialState');
  // A scratch store of the same cache writes the answers as a request's answer is written.
  const store = configureStore({
    reducer: { [cache.reducerPath]: cache.reducer },
    middleware: getDefault => getDefault({ serializableCheck: false, immutableCheck: false }).concat(cache.middleware),
  });
  const controller = cache.controller(store);
  for (const fixture of list) {
    if (isInterceptor(fixture)) continue;
    const args = fixture.args as unknown[];
    if ('error' in fixture) controller.setError(fixture.endpoint, ...args, failureOf(fixture as Fixture));
    else controller.setResponse(fixture.endpoint, ...args, fixture.response);
  }
  return { [cache.reducerPath]: (store.getState() as Record<string, unknown>)[cache.reducerPath] } as never;
}

/** The error a request would fail with: a NetworkError for an HTTP status, else the error as given. */
function failureOf(fixture: Fixture): unknown {
  const status = (fixture.error as { status?: unknown } | null)?.status;
  // No status: what fetch rejected with (a TypeError when offline) is stored as it is.
  if (typeof status !== 'number') return fixture.error;
  const endpoint = fixture.endpoint as EndpointLike & { method?: unknown; url?: unknown };
  const args = fixture.args as unknown[];
  const method = typeof endpoint.method === 'string' ? endpoint.method : 'GET';
  // Another endpoint than a RestEndpoint: its key stands for the URL.
  const url = typeof endpoint.url === 'function' ? String(endpoint.url(...args)) : endpoint.key(...args);
  return new NetworkError(
    method,
    url,
    responseOf({ ok: false, error: fixture.error }, url),
    failureBody(fixture.error),
  );
}
