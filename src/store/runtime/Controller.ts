/**
 * The Controller: the cache's reads and writes bound to one store, for code outside
 * React (and behind `useController`). Reads use the store's current state.
 */

import { argsKey, isSkipArgs } from '../../base/json.js';
import type { CacheState, EndpointMeta } from '../../base/state.js';
import type { Queried } from '../../schema/types.js';
import type { CacheOperations } from '../CacheOperations.js';
import { requestKey, type EndpointLike } from '../endpoint.js';
import type { FetchPromise } from './Requests.js';
import type { ExpiryStatus, ResponseState } from '../reads/selectors.js';
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
  StoreLike,
} from '../types.js';
import type { FeatureApis, ListenerOptions, SweepReport } from './Feature.js';
import type { Subscriptions } from './Subscriptions.js';

/** What a Controller needs of its store's runtime (StoreRuntime.ts). */
export interface ControllerRuntime {
  readonly subscriptions: Subscriptions;
  readonly requests: { fetching(key: string): boolean; listen(listener: () => void): () => void };
  state(): CacheState;
  api<N extends keyof FeatureApis>(name: N, use: string): FeatureApis[N];
  watch(key: string, request: Promise<unknown>): void;
  settledInvalid(key: string, meta: object | undefined, invalid: boolean): boolean;
  waiting(key: string): void;
  freshAnswer(key: string, meta: EndpointMeta | undefined): boolean;
  shown(key: string): void;
  settledOf<T>(request: Promise<T>): Promise<T | undefined>;
}

/** `controller.fetch`: a create is typed by what it sends (one item, or a list), anything else by its schema. */
export interface ControllerFetch {
  <E extends EndpointLike>(
    endpoint: E,
    ...args: IsCreate<E> extends true ? CreateArgs<E, ListBody<E>> : never
  ): FetchPromise<CreatedList<E>>;
  <E extends EndpointLike>(
    endpoint: E,
    ...args: IsCreate<E> extends true ? CreateArgs<E, OneBody<E>> : never
  ): FetchPromise<CreatedItem<E>>;
  <E extends EndpointLike>(endpoint: E, ...args: ArgsOf<E>): FetchPromise<ResponseData<E>>;
}

const ignore = (): void => undefined;

export type { StoreLike } from '../types.js';

/**
 * `P` is the `reducerPath` of the cache that made it (`cache.controller(store)`).
 *
 * @example
 * ```ts
 * const controller = cache.controller(store);
 * await controller.fetch(getPosts, { group: 'react' });
 * controller.get(sortedPosts, { group: 'react' }); // sorted Post instances
 * ```
 * @see docs/RestEndpoint.md#the-controller-outside-react
 */
export class Controller<P extends string = string> {
  constructor(
    private readonly cache: CacheOperations,
    private readonly store: StoreLike,
    private readonly runtime: ControllerRuntime,
  ) {}

  /** `cache.selectQuery` on the current state. */
  readonly get = <S>(schema: S, ...args: unknown[]): Queried<S> | undefined =>
    this.cache.selectQuery(this.store.getState(), schema, ...args);

  /** `cache.selectResponse` on the current state. */
  readonly getResponse = <E extends EndpointLike>(
    endpoint: E,
    ...args: ArgsOf<E> | [null]
  ): ResponseState<ResponseData<E>> => this.cache.selectResponse(this.store.getState(), endpoint, ...args);

  /** Dispatches `cache.fetch`: the promise of the denormalized response, with `abort()`. */
  readonly fetch: ControllerFetch = (endpoint: EndpointLike, ...args: unknown[]) =>
    this.store.dispatch(this.cache.fetch(endpoint, ...(args as never[])));

  /** Dispatches `cache.fetchIfStale`. */
  readonly fetchIfStale = <E extends EndpointLike>(
    endpoint: E,
    ...args: ArgsOf<E>
  ): FetchPromise<ResponseData<E>> | ResponseData<E> | undefined =>
    this.store.dispatch(this.cache.fetchIfStale(endpoint, ...args));

  readonly set = (schema: unknown, ...argsAndValue: [...args: unknown[], value: unknown]): void =>
    this.store.dispatch(this.cache.set(schema, ...argsAndValue));

  readonly setResponse = (endpoint: EndpointLike, ...argsAndResponse: [...args: unknown[], response: unknown]): void =>
    this.store.dispatch(this.cache.setResponse(endpoint, ...argsAndResponse));

  readonly resolve = (endpoint: EndpointLike, input: ResolveInput): void =>
    this.store.dispatch(this.cache.resolve(endpoint, input));

  readonly setError = (endpoint: EndpointLike, ...argsAndError: [...args: unknown[], error: unknown]): void =>
    this.store.dispatch(this.cache.setError(endpoint, ...argsAndError));

  readonly invalidate = (endpoint: EndpointLike, ...args: unknown[]): void =>
    this.store.dispatch(this.cache.invalidate(endpoint, ...args));

  readonly invalidateAll = (filter?: KeyFilter): void => this.store.dispatch(this.cache.invalidateAll(filter));

  readonly expireAll = (filter?: KeyFilter): void => this.store.dispatch(this.cache.expireAll(filter));

  readonly resetEntireStore = (): void => this.store.dispatch(this.cache.resetEntireStore());

  /**
   * Keeps `endpoint`'s response for args (and the rows it reaches) from garbage collection, and
   * refetched on focus, until `release()` is called, as a mounted hook does. `release` may be
   * called more than once. `null` params hold nothing.
   */
  readonly retain = <E extends EndpointLike>(endpoint: E, ...args: ArgsOf<E> | [null]): (() => void) => {
    if (isSkipArgs(args)) return ignore;
    return this.runtime.subscriptions.retain('request', requestKey(endpoint, args), { target: endpoint, args });
  };

  /** Keeps what a Query (or any schema) reads for args from garbage collection, as a mounted useQuery does. */
  readonly retainQuery = (schema: object, ...args: unknown[]): (() => void) => {
    if (isSkipArgs(args)) return ignore;
    const { subscriptions } = this.runtime;
    return subscriptions.retain('query', subscriptions.queryKey(schema, argsKey(args)), { target: schema, args });
  };

  /**
   * Subscribes to `endpoint` for args: polled every `endpoint.pollFrequency` ms while subscribed
   * (docs/live-data.md). Returns `unsubscribe()`. Needs the liveData feature.
   */
  readonly subscribe = <E extends EndpointLike>(endpoint: E, ...args: ArgsOf<E> | [null]): (() => void) =>
    this.runtime.api('liveData', 'A subscription (subscribe, useSubscription, useLive)').subscribe(endpoint, args);

  /** Refetches what is held and not valid when the window regains focus or goes online. Needs liveData. */
  readonly setupListeners = (options?: ListenerOptions): (() => void) =>
    this.runtime.api('liveData', 'setupListeners').setupListeners(options);

  /** Runs a garbage-collection sweep now. Needs the garbageCollection feature. */
  readonly gc = (): SweepReport => this.runtime.api('garbageCollection', 'A sweep (cache.gc)').sweep();

  /**
   * What a reader rendering `endpoint`'s response does (useSuspense, useFetch): with `response`
   * read now not valid, starts (or joins) its request and returns it; returns `'stuck'` instead
   * when the last request for the key settled, nothing was written for it since, and it still
   * reads invalid (fetching again would loop without end); returns undefined when it is valid.
   * Stale data is fetched once per reader: `last` is the status the reader rendered last for the
   * key (undefined as it mounts); stale after stale, or the answer it waited for, is shown as it is.
   */
  readonly revalidate = (
    endpoint: EndpointLike,
    args: readonly unknown[],
    response: ResponseState,
    key: string = requestKey(endpoint, args),
    last?: ExpiryStatus,
  ): FetchPromise<unknown> | 'stuck' | undefined => {
    const invalid = response.expiryStatus === 'invalid';
    const meta = this.runtime.state().meta[key];
    if (this.runtime.settledInvalid(key, meta, invalid)) return 'stuck';
    if (response.expiryStatus === 'valid') return undefined;
    // Only going stale while shown, or a reader mounting, fetches stale data: an answer stale as it
    // arrives (an expiry of 0) must not make its own readers fetch it again (docs/store.md).
    if (!invalid && (last === 'stale' || (last !== 'valid' && this.runtime.freshAnswer(key, meta)))) return undefined;
    const request = this.fetch(endpoint, ...(args as never[])) as FetchPromise<unknown>;
    this.runtime.watch(key, request);
    if (invalid) this.runtime.waiting(key);
    return request;
  };

  /** A mounted reader showed the response stored under `key` (its effect after the render): see `revalidate`. */
  readonly shown = (key: string): void => this.runtime.shown(key);

  /** A promise that settles with `request` and never rejects (what Suspense waits on); the same one per request. */
  readonly settled = <T>(request: Promise<T>): Promise<T | undefined> => this.runtime.settledOf(request);

  /** Whether a request for `endpoint` and args is in flight now: a first load, a refetch, a poll. */
  readonly isFetching = <E extends EndpointLike>(endpoint: E, ...args: ArgsOf<E> | [null]): boolean =>
    !isSkipArgs(args) && this.runtime.requests.fetching(requestKey(endpoint, args));

  /**
   * Calls `listener` (in a microtask, once per burst) whenever a request in flight starts or ends,
   * so `isFetching` may have changed: a `useSyncExternalStore` subscription. Returns the removal.
   */
  readonly subscribeFetching = (listener: () => void): (() => void) => this.runtime.requests.listen(listener);
}
