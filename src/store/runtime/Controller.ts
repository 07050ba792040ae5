/**
 * The Controller: the cache's reads and writes bound to one store, for code outside
 * React (and behind `useController`). Reads use the store's current state.
 */

import type { Queried } from '../../schema/types.js';
import type { CacheOperations } from '../CacheOperations.js';
import type { EndpointLike } from '../endpoint.js';
import type { FetchPromise } from './Requests.js';
import type { ResponseState } from '../reads/selectors.js';
import type { ArgsOf, KeyFilter, ResolveInput, ResponseData, StoreLike } from '../types.js';

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
  readonly fetch = <E extends EndpointLike>(endpoint: E, ...args: ArgsOf<E>): FetchPromise<ResponseData<E>> =>
    this.store.dispatch(this.cache.fetch(endpoint, ...args));

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
}
