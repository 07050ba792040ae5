/**
 * createCache: the Redux slice (reducer), its middleware, the write thunks and the memoized
 * selectors of one normalized cache. See docs/getting-started.md.
 */

import type { UnknownAction } from '@reduxjs/toolkit';
import type { CacheState } from '../base/state.js';
import { isSkipArgs } from '../base/json.js';
import { internals, type Cache, type CacheOptions } from './Cache.js';
import { ActionTypes, writeAction, type WriteAction } from './slice/actions.js';
import { Controller, type StoreLike } from './runtime/Controller.js';
import { draftUpdate } from './writes/draftUpdate.js';
import { Collector, gcTimeOf } from './features/gc/Collector.js';
import { confirmedWrite } from './writes/confirmedWrite.js';
import { mountCheck } from './slice/mountCheck.js';
import { dispatchGuess } from './features/optimistic/guess.js';
import { createResolve } from './writes/resolve.js';
import { createMiddleware, createReducer, createSliceReader, thunk, type CacheThunk } from './slice/reducer.js';
import { Requests } from './runtime/Requests.js';
import { setupListeners, subscribe } from './features/live/subscribe.js';
import type { Selectors } from './reads/selectors.js';
import { MemoOwners } from './reads/MemoOwners.js';
import { HighWater } from './runtime/StartClock.js';
import { StoreRuntime } from './runtime/StoreRuntime.js';
import { computeExpire, computeInvalidate, computeReset, computeSet } from './writes/compute.js';

export type { ListenerOptions } from './features/live/subscribe.js';

export type { ArgsOf, Cache, CacheInternals, CacheOptions, KeyFilter, ResponseData } from './Cache.js';
export { internalsOf } from './Cache.js';
export type { CacheThunk } from './slice/reducer.js';

/**
 * Creates a cache: mount `reducer` at `reducerPath` and add `middleware`.
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
  const reducerPath = (options.reducerPath ?? 'cache') as P;
  const normalizeOptions = { maxEntityDepth: options.maxEntityDepth ?? 64 };
  const argsCacheSize = options.argsCacheSize ?? 100;
  const lensCacheSize = options.lensCacheSize ?? 16;
  const gcTime = gcTimeOf(options.gcTime);
  const mount = mountCheck(reducerPath);
  // Each store's read memo is its own (MemoOwners.ts); `selectorsAt(slice)` finds the one that reads a slice.
  const memos = new MemoOwners({ argsCacheSize, lensCacheSize, maxEntityDepth: normalizeOptions.maxEntityDepth });
  const selectorsAt = (state: CacheState): Selectors => memos.of(state);

  const slice = createSliceReader(reducerPath, mount);
  const writeParts = { slice, normalizeOptions, reducerPath };
  // The highest start stamp in each slice this cache's reducer made (StartClock.ts).
  const highWater = new HighWater();
  const reducer = createReducer(reducerPath, highWater, mount, (from, to) => memos.carry(from, to));
  // The middleware claims the path (mountCheck.ts), makes the store's runtime, and notes the store's slices.
  const middleware = mount.claiming(
    createMiddleware(api => {
      const runtime = runtimeOf(api);
      let noted: unknown; // (most actions leave the slice, or the reducer passed its owner on)
      return () => {
        try {
          const state = slice(api.getState());
          if (state !== noted) memos.note((noted = state), runtime.selectors);
        } catch {
          // No cache slice at reducerPath (yet): reads will say so where they happen.
        }
      };
    }),
  );

  const dispatchWrite = (dispatch: (action: UnknownAction) => unknown, action: WriteAction): void => {
    if (action.payload.patches.length > 0) dispatch(action as unknown as UnknownAction);
  };

  // An answer, an error, setResponse: one write each, taking a guess's place (resolve.ts).
  const resolve = createResolve({ ...writeParts, selectors: memos.shared, runtimeOf: store => runtimeOf(store) });

  /** Reads `state` for a guess or an updater (Selectors.queryAt). */
  const readState = (state: CacheState, visible: CacheState, schema: unknown, args: readonly unknown[]): unknown =>
    selectorsAt(visible).queryAt(state, visible, schema, args);

  // What this cache knows about each store outside the state lives in one StoreRuntime per store
  // (requests in flight, the start clock, settled marks, the Controller, subscriptions): a cache
  // mounted in several stores (tests, SSR) keeps them apart. Keyed by the store's own `getState`,
  // which thunks receive too.
  const runtimes = new WeakMap<object, StoreRuntime>();
  const runtimeOf = (store: StoreLike): StoreRuntime => {
    let runtime = runtimes.get(store.getState);
    if (!runtime) {
      const requests = new Requests({
        resolve,
        data: (rootState, endpoint, args, result) =>
          selectorsAt(slice(rootState)).denormalized(slice(rootState), endpoint.schema, args, result),
        highWater: rootState => highWater.of(slice(rootState)),
        heldPages: (rootState, key) => slice(rootState).meta[key]?.pages,
        optimistic: (endpoint, args, fetchedAt) =>
          thunk((dispatch, getState) =>
            dispatchGuess(
              {
                slice,
                query: readState,
                ledger: runtimeOf({ getState, dispatch }).optimistic,
                normalizeOptions,
                reducerPath,
              },
              endpoint,
              args,
              fetchedAt,
              dispatch,
              getState,
            ),
          ),
      });
      const metaOf = (key: string) => slice(store.getState()).meta[key];
      runtime = new StoreRuntime(requests, new Controller(cache, store), metaOf, memos.make());
      const { subscriptions } = runtime;
      const dropped = runtime.dropped.bind(runtime);
      runtime.collector = new Collector({
        gcTime,
        subscriptions,
        requests,
        slice: () => slice(store.getState()),
        // A sweep is a confirmed write (docs/gc.md, "Sweeps and pending guesses").
        write: compute =>
          confirmedWrite(writeParts, { ledger: runtime!.optimistic, ...store }, ActionTypes.gc, compute),
        forget: (endpoint, args) => runtime!.selectors.forget(endpoint, args),
        dropped,
      });
      runtimes.set(store.getState, runtime);
    }
    return runtime;
  };
  const requestsOf = (getState: () => unknown, dispatch: (action: UnknownAction) => unknown): Requests =>
    runtimeOf({ getState, dispatch }).requests;

  const invalidateKeys = (keysOf: (state: CacheState) => Iterable<string>): CacheThunk =>
    thunk((dispatch, getState) => {
      const state = slice(getState());
      const keys = [...keysOf(state)];
      const requests = requestsOf(getState, dispatch);
      // A request already in flight started before the invalidation: the next fetch starts anew.
      for (const key of keys) requests.forget(key);
      const start = requests.stamp(getState());
      const target = { ledger: runtimeOf({ getState, dispatch }).optimistic, dispatch, getState };
      confirmedWrite(writeParts, target, ActionTypes.invalidate, confirmed =>
        computeInvalidate(confirmed, keys, Date.now(), start),
      );
    });

  const cache: Cache<P> = {
    reducerPath,
    reducer,
    middleware,
    set(schema, ...argsAndValue) {
      const args = argsAndValue.slice(0, -1);
      const value = argsAndValue[argsAndValue.length - 1];
      return thunk((dispatch, getState) => {
        const updater = typeof value === 'function';
        const runtime = runtimeOf({ getState, dispatch });
        const start = runtime.requests.stamp(getState());
        // An updater edits the cache: only the rows it changed get a new expiry (docs/store.md).
        const options = updater ? { ...normalizeOptions, changedRowsOnly: true } : normalizeOptions;
        const target = { ledger: runtime.optimistic, dispatch, getState };
        confirmedWrite(
          writeParts,
          target,
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
            return computeSet(confirmed, schema, args, next, Date.now(), start, options);
          },
          { start },
        );
      });
    },
    setResponse(endpoint, ...argsAndResponse) {
      const args = argsAndResponse.slice(0, -1);
      const response = argsAndResponse[argsAndResponse.length - 1];
      return thunk((dispatch, getState) =>
        resolve(endpoint, { args, response, fetchedAt: requestsOf(getState, dispatch).stamp(getState()) })(
          dispatch,
          getState,
        ),
      );
    },
    resolve,
    setError(endpoint, ...argsAndError) {
      const args = argsAndError.slice(0, -1);
      const error = argsAndError[argsAndError.length - 1];
      return thunk((dispatch, getState) =>
        resolve(endpoint, { args, error, fetchedAt: requestsOf(getState, dispatch).stamp(getState()) })(
          dispatch,
          getState,
        ),
      ) as CacheThunk;
    },
    selectQuery(rootState, schema, ...args) {
      const state = slice(rootState);
      return selectorsAt(state).query(state, schema, args) as never;
    },
    selectResponse(rootState, endpoint, ...args) {
      const state = slice(rootState);
      return selectorsAt(state).response(state, endpoint, args, Date.now()) as never;
    },
    fetch(endpoint, ...args) {
      return thunk((dispatch, getState) =>
        requestsOf(getState, dispatch).fetch(endpoint, args, dispatch, getState),
      ) as never;
    },
    fetchIfStale(endpoint, ...args) {
      return thunk((dispatch, getState) => {
        const state = slice(getState());
        const response = selectorsAt(state).response(state, endpoint, args, Date.now());
        return response.expiryStatus === 'valid'
          ? response.data
          : requestsOf(getState, dispatch).fetch(endpoint, args, dispatch, getState);
      }) as never;
    },
    invalidate(endpoint, ...args) {
      return invalidateKeys(() => (isSkipArgs(args) ? [] : [endpoint.key(...args)]));
    },
    invalidateAll({ testKey = () => true } = {}) {
      return invalidateKeys(
        state => new Set([...Object.keys(state.endpoints), ...Object.keys(state.meta)].filter(key => testKey(key))),
      );
    },
    expireAll({ testKey = () => true } = {}) {
      return thunk((dispatch, getState) => {
        dispatchWrite(
          dispatch,
          writeAction(ActionTypes.expireAll, reducerPath, computeExpire(slice(getState()), testKey)),
        );
      });
    },
    resetEntireStore() {
      return thunk((dispatch, getState) => {
        const runtime = runtimeOf({ getState, dispatch });
        runtime.reset();
        // The memo would hold the old rows until evicted (docs/gc.md, "Outside the state").
        runtime.selectors.clear();
        const start = runtime.requests.stamp(getState());
        dispatchWrite(
          dispatch,
          writeAction(ActionTypes.reset, reducerPath, computeReset(slice(getState()), start), { start }),
        );
      });
    },
    controller(store) {
      return runtimeOf(store).controller as Controller<P>;
    },
    subscribe(store, endpoint, ...args) {
      // A store without this cache mounted throws CACHE_NOT_MOUNTED here, not later in a timer.
      slice(store.getState());
      const live = { runtime: runtimeOf(store), store, meta: (key: string) => slice(store.getState()).meta[key] };
      return subscribe(live, endpoint, args);
    },
    setupListeners(store, options) {
      return setupListeners(runtimeOf(store), options);
    },
    retain(store, endpoint, ...args) {
      if (isSkipArgs(args)) return () => undefined;
      const key = endpoint.key(...args);
      return runtimeOf(store).subscriptions.retain('request', key, { target: endpoint, args });
    },
    gc: ((store?: StoreLike) => {
      if (store) return runtimeOf(store).collector!.sweep();
      return thunk((dispatch, getState) => runtimeOf({ getState, dispatch }).collector!.sweep());
    }) as Cache<P>['gc'],
  };
  internals.set(cache, {
    slice,
    runtime: runtimeOf,
    query: (rootState, schema, args, memoKey) => {
      const state = slice(rootState);
      return selectorsAt(state).query(state, schema, args, memoKey);
    },
    response: (rootState, endpoint, args, keys) =>
      selectorsAt(slice(rootState)).response(slice(rootState), endpoint, args, Date.now(), keys),
  });
  return cache;
}
