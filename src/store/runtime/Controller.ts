/**
 * The Controller: the cache's reads and writes bound to one store, for code outside
 * React (and behind `useController`). Reads use the store's current state.
 */

import { argsKey, isSkipArgs } from '../../base/json.js';
import type { CacheState } from '../../base/state.js';
import type { NormalizeOptions } from '../../normalize/normalize.js';
import type { Queried } from '../../schema/types.js';
import { checkStamp, requestKey, type EndpointLike, type ExpiryDefaults } from '../endpoint.js';
import type { FetchPromise } from './Requests.js';
import type { Selectors } from '../reads/selectors.js';
import type { ActionType, WritePayload } from '../slice/reducer.js';
import type { FeatureApis } from './Feature.js';
import type { ReadMarks } from './ReadMarks.js';
import type { Requests } from './Requests.js';
import type { Subscriptions } from './Subscriptions.js';
import type { ExpiryStatus, ResponseState } from '../reads/selectors.js';
import { ActionTypes, writeAction } from '../slice/reducer.js';
import { computeExpire, computeInvalidate, computeReset } from '../writes/compute.js';
import { setAt } from './setAt.js';
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
import type { ListenerOptions, SweepReport } from './Feature.js';
import type { DevText } from '../../base/errors.js';

/**
 * What a Controller runs its operations on: its store's runtime (StoreRuntime.ts), named here by
 * what the Controller uses of it, so that the runtime, which makes the Controller, is not imported.
 */
export interface ControllerRuntime {
  readonly parts: {
    readonly reducerPath: string;
    readonly normalizeOptions: NormalizeOptions;
    readonly expiry: ExpiryDefaults;
    readState(state: CacheState, visible: CacheState, schema: unknown, args: readonly unknown[]): unknown;
  };
  readonly selectors: Selectors;
  readonly subscriptions: Subscriptions;
  readonly requests: Requests;
  readonly marks: ReadMarks;
  readonly features: { api<N extends keyof FeatureApis>(name: N, use: DevText): FeatureApis[N] };
  readonly store: StoreLike;
  state(): CacheState;
  stamp(): number;
  fetch(endpoint: EndpointLike, args: readonly unknown[]): FetchPromise<unknown>;
  resolve(endpoint: EndpointLike, input: ResolveInput): unknown;
  write<T extends WritePayload>(
    type: ActionType,
    compute: (confirmed: CacheState, visible: CacheState) => T | undefined,
    meta?: { start?: number },
  ): T | undefined;
  reset(): void;
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
  declare private readonly runtime: ControllerRuntime;
  constructor(runtime: ControllerRuntime) {
    this.runtime = runtime;
  }

  /** `cache.selectQuery` on the current state. */
  readonly get = <S>(schema: S, ...args: unknown[]): Queried<S> | undefined =>
    this.runtime.selectors.query(this.runtime.state(), schema, args) as Queried<S> | undefined;

  /** `cache.selectResponse` on the current state. */
  readonly getResponse = <E extends EndpointLike>(
    endpoint: E,
    ...args: ArgsOf<E> | [null]
  ): ResponseState<ResponseData<E>> =>
    this.runtime.selectors.response(this.runtime.state(), endpoint, args, Date.now()) as ResponseState<ResponseData<E>>;

  /** Fetches and stores the response: the promise of it denormalized, with `abort()` (docs/store.md). */
  readonly fetch: ControllerFetch = ((endpoint: EndpointLike, ...args: unknown[]) =>
    this.runtime.fetch(endpoint, args)) as ControllerFetch;

  /** Fetches only when the stored response is missing, stale or invalid; else gives its data. */
  readonly fetchIfStale = <E extends EndpointLike>(
    endpoint: E,
    ...args: ArgsOf<E>
  ): FetchPromise<ResponseData<E>> | ResponseData<E> | undefined => {
    const { runtime } = this;
    const response = runtime.selectors.response(runtime.state(), endpoint, args, Date.now());
    return (response.expiryStatus === 'valid' ? response.data : runtime.fetch(endpoint, args)) as ResponseData<E>;
  };

  /** Writes `value` (or what an updater makes of the cached value) by `schema`, without an endpoint (docs/store.md). */
  readonly set = (schema: unknown, ...argsAndValue: [...args: unknown[], value: unknown]): void =>
    setAt(this.runtime, this.runtime.stamp(), schema, argsAndValue.slice(0, -1), argsAndValue[argsAndValue.length - 1]);

  /** Stores `response` for `endpoint` and args as if it had just been fetched. */
  readonly setResponse = (
    endpoint: EndpointLike,
    ...argsAndResponse: [...args: unknown[], response: unknown]
  ): void => {
    const args = argsAndResponse.slice(0, -1);
    const response = argsAndResponse[argsAndResponse.length - 1];
    this.runtime.resolve(endpoint, { args, response, fetchedAt: this.runtime.stamp() });
  };

  /** The general write: a response (or error) for args, as fetched at `fetchedAt`. */
  readonly resolve = (endpoint: EndpointLike, input: ResolveInput): void => {
    // Stamps from the caller (the runtime's own come from its clock): endpoint.ts, checkStamp.
    checkStamp(input?.fetchedAt, process.env.NODE_ENV !== 'production' && 'fetchedAt');
    if (input.start !== undefined) checkStamp(input.start, process.env.NODE_ENV !== 'production' && 'start');
    this.runtime.resolve(endpoint, input);
  };

  /** Stores `error` as the request's error. */
  readonly setError = (endpoint: EndpointLike, ...argsAndError: [...args: unknown[], error: unknown]): void => {
    const args = argsAndError.slice(0, -1);
    const error = argsAndError[argsAndError.length - 1];
    this.runtime.resolve(endpoint, { args, error, fetchedAt: this.runtime.stamp() });
  };

  /** Drops the stored response for args: the next read is 'invalid' (fetch and suspend). */
  readonly invalidate = (endpoint: EndpointLike, ...args: unknown[]): void =>
    this.drop(() => (isSkipArgs(args) ? [] : [requestKey(endpoint, args)]));

  /** `invalidate` for every stored request whose key passes `testKey`. */
  readonly invalidateAll = ({ testKey = () => true }: KeyFilter = {}): void =>
    this.drop(
      state => new Set([...Object.keys(state.endpoints), ...Object.keys(state.meta)].filter(key => testKey(key))),
    );

  /** Makes every stored response whose key passes `testKey` stale: refetched, without suspense. */
  readonly expireAll = ({ testKey = () => true }: KeyFilter = {}): void =>
    // A confirmed write like every other: a pending guess's meta is not expired in its place.
    void this.runtime.write(ActionTypes.expireAll, confirmed => computeExpire(confirmed, testKey));

  /** Empties the cache; answers to requests started before are dropped. */
  readonly resetEntireStore = (): void => {
    const { runtime } = this;
    runtime.reset();
    const start = runtime.stamp();
    const payload = computeReset(runtime.state(), start);
    if (payload.patches.length > 0)
      runtime.store.dispatch(writeAction(ActionTypes.reset, runtime.parts.reducerPath, payload, { start }) as never);
  };

  private drop(keysOf: (state: CacheState) => Iterable<string>): void {
    const { runtime } = this;
    const keys = [...keysOf(runtime.state())];
    // A request already in flight started before the invalidation: the next fetch starts anew.
    for (const key of keys) runtime.requests.forget(key);
    const start = runtime.stamp();
    runtime.write(ActionTypes.invalidate, confirmed => computeInvalidate(confirmed, keys, Date.now(), start));
  }

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
    this.runtime.features
      .api('liveData', process.env.NODE_ENV !== 'production' && 'A subscription (subscribe, useSubscription, useLive)')
      .subscribe(endpoint, args);

  /** Refetches what is held and not valid when the window regains focus or goes online. Needs liveData. */
  readonly setupListeners = (options?: ListenerOptions): (() => void) =>
    this.runtime.features
      .api('liveData', process.env.NODE_ENV !== 'production' && 'setupListeners')
      .setupListeners(options);

  /** Runs a garbage-collection sweep now. Needs the garbageCollection feature. */
  readonly gc = (): SweepReport =>
    this.runtime.features
      .api('garbageCollection', process.env.NODE_ENV !== 'production' && 'A sweep (cache.gc)')
      .sweep();

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
    if (this.runtime.marks.settledInvalid(key, meta, invalid)) return 'stuck';
    if (response.expiryStatus === 'valid') return undefined;
    // Only going stale while shown, or a reader mounting, fetches stale data: an answer stale as it
    // arrives (an expiry of 0) must not make its own readers fetch it again (docs/store.md).
    if (!invalid && (last === 'stale' || (last !== 'valid' && this.runtime.marks.freshAnswer(key, meta))))
      return undefined;
    const request = this.fetch(endpoint, ...(args as never[])) as FetchPromise<unknown>;
    this.runtime.marks.watch(key, request);
    if (invalid) this.runtime.marks.waiting(key, this.runtime.requests.startOf(key));
    return request;
  };

  /** A mounted reader showed the response stored under `key` (its effect after the render): see `revalidate`. */
  readonly shown = (key: string): void => this.runtime.marks.shown(key);

  /** A promise that settles with `request` and never rejects (what Suspense waits on); the same one per request. */
  readonly settled = <T>(request: Promise<T>): Promise<T | undefined> => this.runtime.marks.settledOf(request);

  /** Whether a request for `endpoint` and args is in flight now: a first load, a refetch, a poll. */
  readonly isFetching = <E extends EndpointLike>(endpoint: E, ...args: ArgsOf<E> | [null]): boolean =>
    !isSkipArgs(args) && this.runtime.requests.fetching(requestKey(endpoint, args));

  /**
   * Calls `listener` (in a microtask, once per burst) whenever a request in flight starts or ends,
   * so `isFetching` may have changed: a `useSyncExternalStore` subscription. Returns the removal.
   */
  readonly subscribeFetching = (listener: () => void): (() => void) => this.runtime.requests.listen(listener);
}
