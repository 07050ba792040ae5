/**
 * createLeanCache: a cache built with the features it is given (docs/features.md). It assembles
 * the parts: the slice (reducer, middleware, slice reader), the read memos, the write thunks, and
 * the per-store runtime the middleware makes as it is mounted, into which the features install.
 * createCache is this with every feature.
 */

import { ErrorCode, setupError } from '../base/errors.js';
import { isSkipArgs } from '../base/json.js';
import type { CacheState } from '../base/state.js';
import { internals, type Cache, type CacheOptions } from './Cache.js';
import { countOf, expiryDefaultsOf, featuresOf, gcTimeOf, reducerPathOf, unauthorizedOf } from './cacheOptions.js';
import { checkTimeout } from '../base/endpointOptions.js';
import { checkStamp, requestKey, STAMP_AHEAD } from './endpoint.js';
import { MemoOwners } from './reads/MemoOwners.js';
import type { Controller } from './runtime/Controller.js';
import { HighWater } from './runtime/StartClock.js';
import { Lineage } from './slice/Lineage.js';
import { StoreRuntime, type CacheParts, type Feature } from './runtime/StoreRuntime.js';
import { ActionTypes, writeAction } from './slice/actions.js';
import { mountCheck } from './slice/mountCheck.js';
import { createMiddleware, thunk, type CacheThunk } from './slice/middleware.js';
import { createReducer } from './slice/reducer.js';
import { createSliceReader } from './slice/sliceReader.js';
import type { StoreLike } from './types.js';
import { computeExpire, computeInvalidate, computeReset, computeSet } from './writes/compute.js';
import { draftUpdate } from './writes/draftUpdate.js';
import { resolveWrite } from './writes/resolve.js';

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
  const reducerPath = reducerPathOf(options.reducerPath) as P;
  const maxEntityDepth = countOf(options.maxEntityDepth, 'maxEntityDepth', 64);
  const normalizeOptions = { maxEntityDepth };
  const argsCacheSize = countOf(options.argsCacheSize, 'argsCacheSize', 100);
  const lensCacheSize = countOf(options.lensCacheSize, 'lensCacheSize', 16);
  const mount = mountCheck(reducerPath);
  // Each store's read memo is its own (MemoOwners.ts): `selectorsAt(slice)` finds the one that reads a slice.
  const memos = new MemoOwners({ argsCacheSize, lensCacheSize, maxEntityDepth });
  const slice = createSliceReader(reducerPath, mount);
  // The highest start stamp in each slice this cache's reducer made (StartClock.ts).
  const highWater = new HighWater();
  // Which slices the cache's own writes made from which (Lineage.ts).
  const lineage = new Lineage();
  const reducer = createReducer(reducerPath, highWater, mount, (from, to, patches) => {
    memos.carry(from, to, patches);
    lineage.carry(from, to);
  });

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
      ErrorCode.MIDDLEWARE_MISSING,
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
    gcTime: gcTimeOf(options.gcTime),
    expiry: expiryDefaultsOf(options),
    timeout: checkTimeout(options.timeout, 'createCache'),
    unauthorized: unauthorizedOf(options),
    features: featuresOf(options.features),
    operations: undefined as never, // (set below, once the cache exists)
    slice,
    highWater: state => highWater.of(state),
    lineage: state => lineage.of(state),
    memo: () => memos.make(),
    readState,
  };
  // The middleware claims the path (mountCheck.ts), makes the store's runtime, and notes the store's slices.
  const middleware = mount.claiming(
    createMiddleware(api => {
      const runtime = new StoreRuntime(parts, api);
      runtimes.set(api.getState, runtime);
      let noted: unknown; // (most actions leave the slice, or the reducer passed its owner on)
      let line: object | undefined;
      const after = (): void => {
        let replaced = false;
        try {
          const state = slice(api.getState());
          if (state === noted) return;
          memos.note((noted = state), runtime.selectors);
          // A slice no action of the cache made (HYDRATE, REHYDRATE, a DevTools import): the
          // features rebase on it.
          const token = lineage.of(state);
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

  const invalidateKeys = (keysOf: (state: CacheState) => Iterable<string>): CacheThunk =>
    inStore(runtime => {
      const keys = [...keysOf(runtime.state())];
      // A request already in flight started before the invalidation: the next fetch starts anew.
      for (const key of keys) runtime.requests.forget(key);
      const start = runtime.requests.stamp();
      runtime.write(ActionTypes.invalidate, confirmed => computeInvalidate(confirmed, keys, Date.now(), start));
    });

  const cache: Cache<P> = {
    reducerPath,
    reducer,
    middleware,
    set(schema, ...argsAndValue) {
      const args = argsAndValue.slice(0, -1);
      const value = argsAndValue[argsAndValue.length - 1];
      return inStore(runtime => {
        const updater = typeof value === 'function';
        const start = runtime.requests.stamp();
        // An updater edits the cache: only the rows it changed get a new expiry (docs/store.md).
        const options = updater ? { ...normalizeOptions, changedRowsOnly: true } : normalizeOptions;
        runtime.write(
          ActionTypes.set,
          (confirmed, visible) => {
            let next = value;
            if (updater) {
              // An updater edits the confirmed value, never a pending guess (docs/mutations.md),
              // and runs only on a cached value: with nothing cached, nothing is written.
              const current = readState(confirmed, visible, schema, args);
              if (current === undefined) return undefined;
              next = draftUpdate(current, value as (draft: unknown) => unknown);
            }
            if (next === undefined) return undefined;
            return computeSet(confirmed, schema, args, next, Date.now(), start, options, parts.expiry);
          },
          { start },
        );
      });
    },
    setResponse(endpoint, ...argsAndResponse) {
      const args = argsAndResponse.slice(0, -1);
      const response = argsAndResponse[argsAndResponse.length - 1];
      return inStore(runtime => {
        resolveWrite(runtime, endpoint, { args, response, fetchedAt: runtime.requests.stamp() });
      });
    },
    resolve: (endpoint, input) =>
      inStore(runtime => {
        // Stamps from the caller: no further ahead of the clock than a day (endpoint.ts).
        const latest = Date.now() + STAMP_AHEAD;
        checkStamp(input?.fetchedAt, 'fetchedAt', latest);
        if (input.start !== undefined) checkStamp(input.start, 'start', latest);
        return resolveWrite(runtime, endpoint, input);
      }) as CacheThunk,
    setError(endpoint, ...argsAndError) {
      const args = argsAndError.slice(0, -1);
      const error = argsAndError[argsAndError.length - 1];
      return inStore(runtime => {
        resolveWrite(runtime, endpoint, { args, error, fetchedAt: runtime.requests.stamp() });
      });
    },
    selectQuery(rootState, schema, ...args) {
      const state = slice(rootState);
      return memos.of(state).query(state, schema, args) as never;
    },
    selectResponse(rootState, endpoint, ...args) {
      const state = slice(rootState);
      return memos.of(state).response(state, endpoint, args, Date.now()) as never;
    },
    fetch(endpoint, ...args) {
      return inStore(runtime => runtime.requests.fetch(endpoint, args)) as never;
    },
    fetchIfStale(endpoint, ...args) {
      return inStore(runtime => {
        const response = runtime.selectors.response(runtime.state(), endpoint, args, Date.now());
        return response.expiryStatus === 'valid' ? response.data : runtime.requests.fetch(endpoint, args);
      }) as never;
    },
    invalidate(endpoint, ...args) {
      return invalidateKeys(() => (isSkipArgs(args) ? [] : [requestKey(endpoint, args)]));
    },
    invalidateAll({ testKey = () => true } = {}) {
      return invalidateKeys(
        state => new Set([...Object.keys(state.endpoints), ...Object.keys(state.meta)].filter(key => testKey(key))),
      );
    },
    expireAll({ testKey = () => true } = {}) {
      // A confirmed write like every other: a pending guess's meta is not expired in its place.
      return inStore(runtime => {
        runtime.write(ActionTypes.expireAll, confirmed => computeExpire(confirmed, testKey));
      });
    },
    resetEntireStore() {
      return inStore(runtime => {
        runtime.reset();
        const start = runtime.requests.stamp();
        const payload = computeReset(runtime.state(), start);
        if (payload.patches.length > 0)
          runtime.store.dispatch(writeAction(ActionTypes.reset, reducerPath, payload, { start }) as never);
      });
    },
    controller: store => runtimeOf(store.getState).controller as Controller<P>,
    subscribe(store, endpoint, ...args) {
      const controller = cache.controller(store);
      // A store without this cache's slice throws CACHE_NOT_MOUNTED here, not later in a timer.
      slice(store.getState());
      return controller.subscribe(endpoint, ...args);
    },
    setupListeners: (store, options) => cache.controller(store).setupListeners(options),
    retain: (store, endpoint, ...args) => cache.controller(store).retain(endpoint, ...args),
    gc: ((store?: StoreLike) =>
      store ? cache.controller(store).gc() : inStore(runtime => runtime.controller.gc())) as Cache<P>['gc'],
  };
  (parts as { operations: CacheParts['operations'] }).operations = cache;
  internals.set(cache, {
    slice,
    query: (rootState, schema, args, memoKey) => {
      const state = slice(rootState);
      return memos.of(state).query(state, schema, args, memoKey);
    },
    response: (rootState, endpoint, args, keys) => {
      const state = slice(rootState);
      return memos.of(state).response(state, endpoint, args, Date.now(), keys);
    },
  });
  return cache;
}
