/**
 * The Cache interface createCache returns, its options and the types the hooks take from it, and
 * the internals lenscache/react reads (not exported from the package entry).
 */

import type { Middleware, Reducer } from '@reduxjs/toolkit';
import { describe, setupError } from '../base/errors.js';
import type { CacheState } from '../base/state.js';
import type { CacheOperations } from './CacheOperations.js';
import type { RequestOptions } from '../rest/requestContext.js';
import type { Controller } from './runtime/Controller.js';
import type { EndpointLike } from './endpoint.js';
import type { CacheThunk } from './slice/middleware.js';
import type { RequestKeys, ResponseState } from './reads/selectors.js';
import type { ListenerOptions, SweepReport } from './runtime/Feature.js';
import type { ArgsOf, StoreLike } from './types.js';

export type { CacheOperations } from './CacheOperations.js';
export type { ArgsOf, KeyFilter, ResponseData } from './types.js';

export interface CacheOptions<P extends string = 'cache'> extends RequestOptions {
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
  /**
   * How long a response stays valid, in ms, for endpoints without their own `dataExpiryLength`;
   * also how long `set` rows do (default 60 000; `Infinity`: never). See docs/store.md.
   */
  dataExpiryLength?: number | undefined;
  /** How long a stored error stays valid, in ms, for endpoints without their own `errorExpiryLength` (default 1 000). */
  errorExpiryLength?: number | undefined;
  /**
   * Turns on the reset on 401 (data-client's `LogoutManager`): when a request the cache sent fails
   * as unauthorized (answered 401, or what `isUnauthorized` accepts), its failure is stored, the
   * store is reset (`resetEntireStore`), then this is called, to take the user to the login page.
   * Off unless given. See docs/store.md, "Reset on 401".
   */
  onUnauthorized?: ((error: unknown, controller: Controller<P>) => void) | undefined;
  /** Which failures count as unauthorized (default: `status === 401`); only with `onUnauthorized`. */
  isUnauthorized?: ((error: unknown) => boolean) | undefined;
}

/**
 * What createCache returns: the reducer and middleware to mount, the reads and writes
 * (CacheOperations.ts), and the per-store entry points (Controller, subscriptions, retention, sweeps).
 */
export interface Cache<P extends string = 'cache'> extends CacheOperations {
  readonly reducerPath: P;
  readonly reducer: Reducer<CacheState>;
  /** The middleware to mount in a store, with the cache's request options. */
  readonly middleware: Middleware;
  /**
   * The middleware for one store, with request options of its own over the cache's: a server
   * render's store fetches `http://api.internal`, the browser's its page's origin, with the same
   * keys (docs/authentication.md). Mount it instead of `middleware`.
   */
  middlewareWith(options: RequestOptions): Middleware;
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
}
/** Set once by createCache for each cache it makes; read by the hooks. */
export const internals = new WeakMap<object, CacheInternals>();

/** The internals of a cache made by createCache. */
export function internalsOf(cache: Cache<string>): CacheInternals {
  const found = internals.get(cache);
  if (!found) {
    throw setupError(
      'CACHE_PROVIDER_MISSING',
      process.env.NODE_ENV !== 'production' && [
        `Expected a cache made by createCache(), but received ${describe(cache)}.`,
        'Pass the object createCache() returned, e.g. <CacheProvider cache={cache}>.',
      ],
    );
  }
  return found;
}
