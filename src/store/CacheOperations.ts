/**
 * The cache's reads and writes: what a Controller binds to one store. Reads take a root state;
 * writes and fetches return thunks for the store's `dispatch`. The Cache interface (Cache.ts)
 * extends this one with the per-store entry points; the Controller needs only these, so it
 * does not import the Cache it is made by (docs/architecture.md, "Layers").
 */

import type { Queried } from '../schema/types.js';
import type { EndpointLike } from './endpoint.js';
import type { CacheThunk } from './slice/middleware.js';
import type { FetchPromise } from './runtime/Requests.js';
import type { ResponseState } from './reads/selectors.js';
import type {
  ArgsOf,
  CreateArgs,
  CreatedItem,
  CreatedList,
  IsCreate,
  KeyFilter,
  ListBody,
  OneBody,
  ResolveInput,
  ResponseData,
} from './types.js';

export interface CacheOperations {
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
  fetch<E extends EndpointLike>(
    endpoint: E,
    ...args: IsCreate<E> extends true ? CreateArgs<E, ListBody<E>> : never
  ): CacheThunk<FetchPromise<CreatedList<E>>>;
  fetch<E extends EndpointLike>(
    endpoint: E,
    ...args: IsCreate<E> extends true ? CreateArgs<E, OneBody<E>> : never
  ): CacheThunk<FetchPromise<CreatedItem<E>>>;
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
}
