/**
 * createLeanCache: a cache built with the features it is given (docs/features.md). It assembles
 * the parts: the slice (reducer, middleware, slice reader), the read memos, the write thunks, and
 * the per-store runtime the middleware makes as it is mounted, into which the features install.
 * createCache is this with every feature.
 */

import { setupError } from '../base/errors.js';
import type { CacheState } from '../base/state.js';
import { internals, type Cache, type CacheOptions } from './Cache.js';
import {
  CACHE_OPTIONS,
  checkedOptions,
  DEFAULT_GC_TIME,
  featuresOf,
  REQUEST_OPTIONS,
  unauthorizedOf,
} from './cacheOptions.js';
import { MemoOwners } from './reads/MemoOwners.js';
import type { Controller } from './runtime/Controller.js';
import { StoreRuntime, type CacheParts, type Feature } from './runtime/StoreRuntime.js';
import { createMiddleware, mountCheck, thunk, type CacheThunk } from './slice/middleware.js';
import { createReducer, SliceFacts } from './slice/reducer.js';
import { createSliceReader } from './slice/sliceReader.js';
import type { StoreLike } from './types.js';
import type { Middleware } from '@reduxjs/toolkit';
import type { RequestOptions } from '../rest/requestContext.js';
import type { EndpointLike } from './endpoint.js';
import type { RequestKeys, ResponseState } from './reads/selectors.js';

/** The Controller methods a cache also offers as thunks. */
type ThunkName =
  | 'set'
  | 'setResponse'
  | 'resolve'
  | 'setError'
  | 'fetch'
  | 'fetchIfStale'
  | 'invalidate'
  | 'invalidateAll'
  | 'expireAll'
  | 'resetEntireStore'
  | 'gc';

/** createLeanCache's options: createCache's, and the features to build the cache with. */
export interface LeanCacheOptions<P extends string = 'cache'> extends CacheOptions<P> {
  /** The features this cache has (docs/features.md); none by default. */
  features?: readonly Feature[];
}

/**
 * Creates a cache with only the features given: an app bundles only those. A method or hook that
 * needs a feature the cache lacks is a set-up error (FEATURE_MISSING) naming it.
 *
 * @example
 * ```ts
 * import { createLeanCache, garbageCollection } from 'lenscache';
 * const cache = createLeanCache({ features: [garbageCollection], gcTime: 60_000 });
 * ```
 */
export function createLeanCache<P extends string = 'cache'>(options: LeanCacheOptions<P> = {}): Cache<P> {
  const given = checkedOptions(options, process.env.NODE_ENV !== 'production' && 'createCache', CACHE_OPTIONS);
  const request = checkedOptions(options, process.env.NODE_ENV !== 'production' && 'createCache', REQUEST_OPTIONS);
  const reducerPath: P = given.reducerPath ?? 'cache';
  const maxEntityDepth: number = given.maxEntityDepth ?? 64;
  const normalizeOptions = { maxEntityDepth };
  const argsCacheSize: number = given.argsCacheSize ?? 100;
  const lensCacheSize: number = given.lensCacheSize ?? 16;
  const mount = mountCheck(reducerPath);
  // Each slice's high water, lineage and unsure rows (slice/reducer.ts, SliceFacts).
  const facts = new SliceFacts();
  // Each store's read memo is its own (MemoOwners.ts): `memos.of(slice)` finds the one that reads a slice.
  const memos = new MemoOwners({ argsCacheSize, lensCacheSize, maxEntityDepth }, facts);
  const slice = createSliceReader(reducerPath, mount);
  const reducer = createReducer(reducerPath, facts, mount);

  /** Reads `state` for a guess or an updater (Selectors.queryAt). */
  const readState = (state: CacheState, visible: CacheState, schema: unknown, args: readonly unknown[]): unknown =>
    memos.of(visible).queryAt(state, visible, schema, args);

  // Each store's runtime, made by the middleware as it is mounted, found by the store's own
  // `getState` (which thunks receive too); held weakly, so it lives as long as the store.
  const runtimes = new WeakMap<object, StoreRuntime>();
  const runtimeOf = (getState: () => unknown): StoreRuntime => {
    const runtime = runtimes.get(getState);
    if (runtime) return runtime;
    throw setupError(
      'MIDDLEWARE_MISSING',
      process.env.NODE_ENV !== 'production' && [
        `The cache at ${reducerPath} was used in a store without its middleware: requests, subscriptions and guesses live there.`,
        'Add it: configureStore({ ..., middleware: getDefault => getDefault().concat(cache.middleware) }).',
      ],
      reducerPath,
    );
  };
  const parts: CacheParts = {
    reducerPath,
    normalizeOptions,
    gcTime: given.gcTime ?? DEFAULT_GC_TIME,
    // The defaults of docs/store.md (endpoint.ts, DEFAULT_EXPIRY).
    expiry: {
      dataExpiryLength: given.dataExpiryLength ?? 60_000,
      errorExpiryLength: given.errorExpiryLength ?? 1_000,
    },
    request,
    unauthorized: unauthorizedOf(given),
    features: featuresOf(options.features),
    slice,
    highWater: state => facts.highWater(state),
    lineage: state => facts.lineage(state),
    facts,
    memo: () => memos.make(),
    readState,
  };
  // The middleware claims the path (slice/middleware.ts), makes the store's runtime with the
  // store's request options, and notes the store's slices.
  const middlewareWith = (request: RequestOptions): Middleware =>
    mount.claiming(
      createMiddleware(api => {
        const runtime = new StoreRuntime(parts, api, request);
        runtimes.set(api.getState, runtime);
        let noted: unknown; // (most actions leave the slice, or the reducer passed its owner on)
        let line: object | undefined;
        const after = (): void => {
          let replaced = false;
          try {
            const state = slice(api.getState());
            if (state === noted) return;
            facts.note((noted = state), runtime.selectors);
            // A slice no action of the cache made (HYDRATE, REHYDRATE, a DevTools import): the
            // features rebase on it.
            const token = facts.lineage(state);
            replaced = line !== undefined && token !== line;
            line = token;
          } catch {
            // No cache slice at reducerPath (yet): reads will say so where they happen.
          }
          if (replaced) runtime.replaced();
        };
        return { runtime, after };
      }),
    );

  /** A thunk of this cache, given the runtime of the store it is dispatched to. */
  const inStore = <R>(run: (runtime: StoreRuntime) => R): CacheThunk<R> =>
    thunk((_dispatch, getState) => run(runtimeOf(getState)));
  /** The thunk-making method for the Controller method `name`: its thunk calls it with the same args. */
  const thunkOf =
    (name: ThunkName) =>
    (...args: unknown[]) =>
      inStore(runtime => (runtime.controller[name] as (...args: unknown[]) => unknown)(...args));

  // (The internals' reads; `memoKey` and `keys` are the hooks', computed once per render.)
  const query = (rootState: unknown, schema: unknown, args: readonly unknown[], memoKey?: string): unknown => {
    const state = slice(rootState);
    return memos.of(state).query(state, schema, args, memoKey);
  };
  const response = (
    rootState: unknown,
    endpoint: EndpointLike,
    args: readonly unknown[],
    keys?: RequestKeys,
  ): ResponseState => {
    const state = slice(rootState);
    return memos.of(state).response(state, endpoint, args, Date.now(), keys);
  };

  // Every write and fetch is the store's Controller's (runtime/Controller.ts): the thunks find the
  // store's runtime and call it.
  const cache: Cache<P> = {
    reducerPath,
    reducer,
    middleware: middlewareWith({}),
    middlewareWith: options =>
      middlewareWith(
        checkedOptions(options, process.env.NODE_ENV !== 'production' && 'cache.middlewareWith', REQUEST_OPTIONS),
      ),
    set: thunkOf('set') as Cache<P>['set'],
    setResponse: thunkOf('setResponse') as Cache<P>['setResponse'],
    resolve: thunkOf('resolve') as Cache<P>['resolve'],
    setError: thunkOf('setError') as Cache<P>['setError'],
    selectQuery: (rootState, schema, ...args) => query(rootState, schema, args) as never,
    selectResponse: (rootState, endpoint, ...args) => response(rootState, endpoint, args) as never,
    fetch: thunkOf('fetch') as Cache<P>['fetch'],
    fetchIfStale: thunkOf('fetchIfStale') as Cache<P>['fetchIfStale'],
    invalidate: thunkOf('invalidate') as Cache<P>['invalidate'],
    invalidateAll: thunkOf('invalidateAll') as Cache<P>['invalidateAll'],
    expireAll: thunkOf('expireAll') as Cache<P>['expireAll'],
    resetEntireStore: thunkOf('resetEntireStore') as Cache<P>['resetEntireStore'],
    controller: store => runtimeOf(store.getState).controller as Controller<P>,
    subscribe(store, endpoint, ...args) {
      const controller = cache.controller(store);
      // A store without this cache's slice throws CACHE_NOT_MOUNTED here, not later in a timer.
      slice(store.getState());
      return controller.subscribe(endpoint, ...args);
    },
    setupListeners: (store, options) => cache.controller(store).setupListeners(options),
    retain: (store, endpoint, ...args) => cache.controller(store).retain(endpoint, ...args),
    gc: ((store?: StoreLike) => (store ? cache.controller(store).gc() : thunkOf('gc')())) as Cache<P>['gc'],
  };
  internals.set(cache, { slice, query, response });
  return cache;
}
