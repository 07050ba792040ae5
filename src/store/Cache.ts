/**
 * The Cache interface createCache returns, its options and the types the hooks take from it, and
 * the internals lenscache/react reads (not exported from the package entry).
 */

import type { Middleware, Reducer } from '@reduxjs/toolkit';
import { describe, ErrorCode, setupError } from '../base/errors.js';
import type { CacheState } from '../base/state.js';
import type { Denormalize, Queried } from '../schema/types.js';
import type { Controller, StoreLike } from './Controller.js';
import type { EndpointLike } from './endpoint.js';
import type { CacheThunk } from './reducer.js';
import type { ListenerOptions } from './live.js';
import type { SweepReport } from './gc.js';
import type { FetchPromise } from './Requests.js';
import type { RequestKeys, ResponseState } from './selectors.js';
import type { StoreRuntime } from './StoreRuntime.js';
import type { ResolveInput } from './writes.js';

export interface CacheOptions<P extends string = 'cache'> {
  /** Where the slice is mounted in the root state (default `'cache'`). */
  reducerPath?: P;
  /** Entity nesting deeper than this is rejected on write and left unresolved on read (default 64). */
  maxEntityDepth?: number;
  /** How many distinct args each schema's and endpoint's read memo keeps (default 100). */
  argsCacheSize?: number;
  /** How many lens views (one per lens value) of one entity or list the memo keeps (default 16). */
  lensCacheSize?: number;
  /**
   * Milliseconds a response nobody retains is kept before a sweep drops it, with the rows only it
   * reached (default 5 minutes; `Infinity` keeps everything). See docs/gc.md.
   */
  gcTime?: number;
}

type SchemaOf<E> = E extends { schema?: infer S } ? S : unknown;
/** The args an endpoint takes, from its `key` (RestEndpoint: from its path and searchParams). */
export type ArgsOf<E> = E extends { key(...args: infer A): string } ? A : unknown[];
/** What an endpoint's response reads as: its schema denormalized, or the raw response without one. */
export type ResponseData<E> = [SchemaOf<E>] extends [undefined]
  ? unknown
  : unknown extends SchemaOf<E>
    ? unknown
    : Denormalize<SchemaOf<E>>;

/** Which stored requests `invalidateAll` and `expireAll` reach (default: all). */
export interface KeyFilter {
  testKey?(key: string): boolean;
}

export interface Cache<P extends string = 'cache'> {
  readonly reducerPath: P;
  readonly reducer: Reducer<CacheState>;
  readonly middleware: Middleware;
  /**
   * Writes `value` by `schema`, without an endpoint. A function is an updater: it receives a
   * draft of the cached (confirmed) value, changes it or returns a new one, as with Immer's
   * `produce`, and only the rows it changed are written (docs/store.md, "Updaters"). Throws on bad input.
   */
  set<S>(schema: S, ...argsAndValue: [...args: unknown[], value: unknown]): CacheThunk;
  /** Stores `response` for `endpoint` and args as if it had just been fetched. */
  setResponse<E extends EndpointLike>(
    endpoint: E,
    ...argsAndResponse: [...args: unknown[], response: unknown]
  ): CacheThunk;
  /** The general write: a response (or error) for args, as fetched at `fetchedAt` (epoch ms). */
  resolve<E extends EndpointLike>(endpoint: E, input: ResolveInput): CacheThunk;
  /** Stores `error` as the request's error. */
  setError<E extends EndpointLike>(endpoint: E, ...argsAndError: [...args: unknown[], error: unknown]): CacheThunk;
  /** The denormalized value of `schema` for args, or `undefined` when it is not in the cache. */
  selectQuery<S>(rootState: unknown, schema: S, ...args: unknown[]): Queried<S> | undefined;
  /** An endpoint's stored response: data, expiry status and error. */
  selectResponse<E extends EndpointLike>(
    rootState: unknown,
    endpoint: E,
    ...args: ArgsOf<E> | [null]
  ): ResponseState<ResponseData<E>>;
  /**
   * Fetches and stores the response; resolves to it denormalized. Identical reads in flight share
   * one request; `abort()` on the promise cancels it. Errors are stored, then rejected.
   */
  fetch<E extends EndpointLike>(endpoint: E, ...args: ArgsOf<E>): CacheThunk<FetchPromise<ResponseData<E>>>;
  /** Fetches only when the stored response is missing, stale or invalid; else gives the data. */
  fetchIfStale<E extends EndpointLike>(
    endpoint: E,
    ...args: ArgsOf<E>
  ): CacheThunk<FetchPromise<ResponseData<E>> | ResponseData<E> | undefined>;
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
  /**
   * Subscribes to `endpoint` for args in `store` (what useSubscription does while mounted): the
   * key is polled every `endpoint.pollFrequency` ms, one poller per key at the shortest frequency
   * asked. Returns `unsubscribe()`. See docs/live-data.md.
   */
  subscribe<E extends EndpointLike>(store: StoreLike, endpoint: E, ...args: ArgsOf<E> | [null]): () => void;
  /**
   * Refetches what `store`'s hooks and subscriptions hold, and is stale or invalid, when the window
   * regains focus or comes back online. Returns `remove()`; does nothing without a window.
   */
  setupListeners(store: StoreLike, options?: ListenerOptions): () => void;
  /**
   * Keeps `endpoint`'s response for args (and the rows it reaches) from garbage collection until
   * `release()` is called, as a mounted hook does. `release` may be called more than once.
   */
  retain<E extends EndpointLike>(store: StoreLike, endpoint: E, ...args: ArgsOf<E> | [null]): () => void;
  /**
   * Runs a garbage-collection sweep now: on `store`, or, without one, as a thunk to dispatch.
   * Returns what it removed.
   */
  gc(store: StoreLike): SweepReport;
  gc(): CacheThunk<SweepReport>;
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
/** Set once by createCache for each cache it makes; read by the hooks. */
export const internals = new WeakMap<object, CacheInternals>();

/** The internals of a cache made by createCache. */
export function internalsOf(cache: Cache<string>): CacheInternals {
  const found = internals.get(cache);
  if (!found) {
    throw setupError(
      ErrorCode.CACHE_PROVIDER_MISSING,
      process.env.NODE_ENV !== 'production' && [
        `Expected a cache made by createCache(), but received ${describe(cache)}.`,
        'Pass the object createCache() returned, e.g. <CacheProvider cache={cache}>.',
      ],
    );
  }
  return found;
}
