/**
 * createCache: the Redux slice (reducer), its middleware, the write thunks and the memoized
 * selectors of one normalized cache. See docs/getting-started.md.
 */

import type { Middleware, Reducer, UnknownAction } from '@reduxjs/toolkit';
import { describe, ErrorCode, isErrorLike, setupError } from '../shared/errors.js';
import type { CacheState } from '../shared/state.js';
import type { Denormalize, Queried } from '../schema/types.js';
import { isSkipArgs } from '../shared/json.js';
import { Reader } from '../memo/Reader.js';
import { ActionTypes, writeAction, type WriteAction } from './actions.js';
import { Controller, type StoreLike } from './Controller.js';
import { MountCheck } from './mountCheck.js';
import type { EndpointLike } from './endpoint.js';
import { createMiddleware, createReducer, createSliceReader, thunk, type CacheThunk } from './reducer.js';
import { Requests, type FetchPromise } from './Requests.js';
import { Selectors, type RequestKeys, type ResponseState } from './selectors.js';
import { HighWater } from './StartClock.js';
import { StoreRuntime } from './StoreRuntime.js';
import { computeExpire, computeInvalidate, computeReset, computeResolve, computeSet, type ResolveInput, type Resolved } from './writes.js';

export interface CacheOptions<P extends string = 'cache'> {
  /** Where the slice is mounted in the root state (default `'cache'`). */
  reducerPath?: P;
  /** Entity nesting deeper than this is rejected on write and left unresolved on read (default 64). */
  maxEntityDepth?: number;
  /** How many distinct args each schema's and endpoint's read memo keeps (default 100). */
  argsCacheSize?: number;
  /** How many lens views (one per lens value) of one entity or list the memo keeps (default 16). */
  lensCacheSize?: number;
}

export type { CacheThunk } from './reducer.js';

type SchemaOf<E> = E extends { schema?: infer S } ? S : unknown;
/** The args an endpoint takes, from its `key` (RestEndpoint: from its path and searchParams). */
export type ArgsOf<E> = E extends { key(...args: infer A): string } ? A : unknown[];
/** What an endpoint's response reads as: its schema denormalized, or the raw response without one. */
export type ResponseData<E> = [SchemaOf<E>] extends [undefined] ? unknown : unknown extends SchemaOf<E> ? unknown : Denormalize<SchemaOf<E>>;

/** Which stored requests `invalidateAll` and `expireAll` reach (default: all). */
export interface KeyFilter {
  testKey?(key: string): boolean;
}

export interface Cache<P extends string = 'cache'> {
  readonly reducerPath: P;
  readonly reducer: Reducer<CacheState>;
  readonly middleware: Middleware;
  /** Writes `value` (or `value(previous)`) by `schema`, without an endpoint. Throws on bad input. */
  set<S>(schema: S, ...argsAndValue: [...args: unknown[], value: unknown]): CacheThunk;
  /** Stores `response` for `endpoint` and args as if it had just been fetched. */
  setResponse<E extends EndpointLike>(endpoint: E, ...argsAndResponse: [...args: unknown[], response: unknown]): CacheThunk;
  /** The general write: a response (or error) for args, as fetched at `fetchedAt` (epoch ms). */
  resolve<E extends EndpointLike>(endpoint: E, input: ResolveInput): CacheThunk;
  /** Stores `error` as the request's error. */
  setError<E extends EndpointLike>(endpoint: E, ...argsAndError: [...args: unknown[], error: unknown]): CacheThunk;
  /** The denormalized value of `schema` for args, or `undefined` when it is not in the cache. */
  selectQuery<S>(rootState: unknown, schema: S, ...args: unknown[]): Queried<S> | undefined;
  /** An endpoint's stored response: data, expiry status and error. */
  selectResponse<E extends EndpointLike>(rootState: unknown, endpoint: E, ...args: ArgsOf<E> | [null]): ResponseState<ResponseData<E>>;
  /**
   * Fetches and stores the response; resolves to it denormalized. Identical reads in flight share
   * one request; `abort()` on the promise cancels it. Errors are stored, then rejected.
   */
  fetch<E extends EndpointLike>(endpoint: E, ...args: ArgsOf<E>): CacheThunk<FetchPromise<ResponseData<E>>>;
  /** Fetches only when the stored response is missing, stale or invalid; else gives the data. */
  fetchIfStale<E extends EndpointLike>(endpoint: E, ...args: ArgsOf<E>): CacheThunk<FetchPromise<ResponseData<E>> | ResponseData<E> | undefined>;
  /** Drops the stored response for args: the next read is 'invalid' (fetch and suspend). */
  invalidate<E extends EndpointLike>(endpoint: E, ...args: ArgsOf<E> | [null]): CacheThunk;
  /** `invalidate` for every stored request whose key passes `testKey`. */
  invalidateAll(filter?: KeyFilter): CacheThunk;
  /** Makes every stored response whose key passes `testKey` stale: refetched, without suspense. */
  expireAll(filter?: KeyFilter): CacheThunk;
  /** Empties the cache; answers to requests started before are dropped. */
  resetEntireStore(): CacheThunk;
  /** A Controller bound to `store`, for code outside React (the same object per store). */
  controller(store: StoreLike): Controller<P>;
}

/**
 * What lenscache/react needs beyond the public API: the slice, and reads with keys the hook
 * computed once per render instead of once per store change and subscriber. Not exported from
 * the package entry.
 */
export interface CacheInternals {
  slice(rootState: unknown): CacheState;
  query(rootState: unknown, schema: unknown, args: readonly unknown[], memoKey: string): unknown;
  response(rootState: unknown, endpoint: EndpointLike, args: readonly unknown[], keys: RequestKeys): ResponseState;
  /** The store's runtime: requests, settled marks, the Controller, subscriptions. */
  runtime(store: StoreLike): StoreRuntime;
}
const internals = new WeakMap<object, CacheInternals>();

/** The internals of a cache made by createCache. */
export function internalsOf(cache: Cache<string>): CacheInternals {
  const found = internals.get(cache);
  if (!found) {
    throw setupError(
      ErrorCode.CACHE_PROVIDER_MISSING,
      `Expected a cache made by createCache(), but received ${describe(cache)}.`,
      'Pass the object createCache() returned, e.g. <CacheProvider cache={cache}>.',
    );
  }
  return found;
}

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
  const mount = new MountCheck(reducerPath);
  const selectors = new Selectors(
    new Reader({ argsCacheSize, lensCacheSize, maxEntityDepth: normalizeOptions.maxEntityDepth }),
    argsCacheSize,
  );

  const slice = createSliceReader(reducerPath, mount);
  // The highest start stamp in each slice this cache's reducer made (StartClock.ts).
  const highWater = new HighWater();
  const reducer = createReducer(reducerPath, highWater, mount);
  // One cache per reducerPath in a store: the middleware claims the path (mountCheck.ts).
  const middleware = mount.claiming(createMiddleware());

  const dispatchWrite = (dispatch: (action: UnknownAction) => unknown, action: WriteAction): void => {
    if (action.payload.patches.length > 0) dispatch(action as unknown as UnknownAction);
  };

  const resolve = (endpoint: EndpointLike, input: ResolveInput): CacheThunk<Resolved | undefined> =>
    thunk((dispatch, getState) => {
      const resolved = computeResolve(slice(getState()), endpoint, input, Date.now(), normalizeOptions);
      if (!resolved) return undefined;
      if (resolved.record && isErrorLike(resolved.error)) selectors.errors.set(resolved.record, resolved.error);
      const type = input.error === undefined ? ActionTypes.resolve : ActionTypes.setError;
      const { patches, inversePatches } = resolved;
      dispatchWrite(dispatch, writeAction(type, reducerPath, { patches, inversePatches }, { key: resolved.key, start: input.fetchedAt }));
      return resolved;
    });

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
        data: (rootState, endpoint, args, result) => selectors.denormalized(slice(rootState), endpoint.schema, args, result),
        highWater: rootState => highWater.of(slice(rootState)),
      });
      const metaOf = (key: string) => slice(store.getState()).meta[key];
      runtime = new StoreRuntime(requests, new Controller(cache, store), metaOf);
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
      dispatchWrite(dispatch, writeAction(ActionTypes.invalidate, reducerPath, computeInvalidate(state, keys, Date.now(), start), { start }));
    });

  const cache: Cache<P> = {
    reducerPath,
    reducer,
    middleware,
    set(schema, ...argsAndValue) {
      const args = argsAndValue.slice(0, -1);
      const value = argsAndValue[argsAndValue.length - 1];
      return thunk((dispatch, getState) => {
        let next = value;
        if (typeof value === 'function') {
          // An updater runs only on a cached value; with nothing cached, nothing is written.
          const current = this.selectQuery(getState(), schema, ...args);
          if (current === undefined) return;
          next = value(current);
        }
        if (next === undefined) return;
        const start = requestsOf(getState, dispatch).stamp(getState());
        const payload = computeSet(slice(getState()), schema, args, next, Date.now(), start, normalizeOptions);
        dispatchWrite(dispatch, writeAction(ActionTypes.set, reducerPath, payload, { start }));
      });
    },
    setResponse(endpoint, ...argsAndResponse) {
      const args = argsAndResponse.slice(0, -1);
      const response = argsAndResponse[argsAndResponse.length - 1];
      return thunk((dispatch, getState) =>
        resolve(endpoint, { args, response, fetchedAt: requestsOf(getState, dispatch).stamp(getState()) })(dispatch, getState),
      );
    },
    resolve,
    setError(endpoint, ...argsAndError) {
      const args = argsAndError.slice(0, -1);
      const error = argsAndError[argsAndError.length - 1];
      return thunk((dispatch, getState) =>
        resolve(endpoint, { args, error, fetchedAt: requestsOf(getState, dispatch).stamp(getState()) })(dispatch, getState),
      ) as CacheThunk;
    },
    selectQuery(rootState, schema, ...args) {
      return selectors.query(slice(rootState), schema, args) as never;
    },
    selectResponse(rootState, endpoint, ...args) {
      return selectors.response(slice(rootState), endpoint, args, Date.now()) as never;
    },
    fetch(endpoint, ...args) {
      return thunk((dispatch, getState) => requestsOf(getState, dispatch).fetch(endpoint, args, dispatch, getState)) as never;
    },
    fetchIfStale(endpoint, ...args) {
      return thunk((dispatch, getState) => {
        const response = selectors.response(slice(getState()), endpoint, args, Date.now());
        return response.expiryStatus === 'valid' ? response.data : requestsOf(getState, dispatch).fetch(endpoint, args, dispatch, getState);
      }) as never;
    },
    invalidate(endpoint, ...args) {
      return invalidateKeys(() => (isSkipArgs(args) ? [] : [endpoint.key(...args)]));
    },
    invalidateAll({ testKey = () => true } = {}) {
      return invalidateKeys(state => new Set([...Object.keys(state.endpoints), ...Object.keys(state.meta)].filter(key => testKey(key))));
    },
    expireAll({ testKey = () => true } = {}) {
      return thunk((dispatch, getState) => {
        dispatchWrite(dispatch, writeAction(ActionTypes.expireAll, reducerPath, computeExpire(slice(getState()), testKey)));
      });
    },
    resetEntireStore() {
      return thunk((dispatch, getState) => {
        const runtime = runtimeOf({ getState, dispatch });
        runtime.reset();
        const start = runtime.requests.stamp(getState());
        dispatchWrite(dispatch, writeAction(ActionTypes.reset, reducerPath, computeReset(slice(getState()), start), { start }));
      });
    },
    controller(store) {
      return runtimeOf(store).controller as Controller<P>;
    },
  };
  internals.set(cache, {
    slice,
    runtime: runtimeOf,
    query: (rootState, schema, args, memoKey) => selectors.query(slice(rootState), schema, args, memoKey),
    response: (rootState, endpoint, args, keys) => selectors.response(slice(rootState), endpoint, args, Date.now(), keys),
  });
  return cache;
}
