/**
 * The types the rest layer shares between its files: an endpoint's options and the types computed
 * from them, and what the cache asks of a paginated list (docs/pagination.md). They sit below
 * RestEndpoint.ts and the pagination files, which all import them, so those files never import
 * each other for a type (docs/architecture.md, "Layers").
 */

import type { ContentData, ResponseContent, RetryOptions } from '../base/endpointOptions.js';
import type { Collection } from '../schema/Collection.js';
import type { CollectionOp, CollectionOpName } from '../schema/CollectionOp.js';
import type { Query } from '../schema/Query.js';
import type { OptimisticSnapshot } from './OptimisticSnapshot.js';
import type { PathParams } from './pathParams.js';
import type { RequestContext } from './requestContext.js';

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

export interface RestEndpointOptions {
  /** The URL path, with `:name` params (`'/:group/posts'`) and optional parts in braces. */
  path: string;
  /** The response's schema. Without one, the raw response is stored and returned. */
  schema?: unknown;
  method?: HttpMethod | undefined;
  /** Put before the path: `'https://api.example.com'`. */
  urlPrefix?: string | undefined;
  /** The type of the query-string params (a type marker: `{} as { orderBy?: string }`). */
  searchParams?: object | undefined;
  /** The type of a mutation's body, sent as JSON from `args[1]` (a type marker). */
  body?: unknown;
  /** How long a response stays valid, in ms (default 60 000). */
  dataExpiryLength?: number | undefined;
  /** How long an error stays valid, in ms (default 1 000). */
  errorExpiryLength?: number | undefined;
  /** Stale data reads as invalid: readers suspend and fetch instead of showing it (default false). */
  invalidIfStale?: boolean | undefined;
  /** Transforms the parsed response before it is normalized: `(value, ...args) => value`. */
  process?: ((value: any, ...args: any[]) => unknown) | undefined;
  /** Extra request headers. */
  headers?: Readonly<Record<string, string>> | undefined;
  /**
   * How a 2xx body is read: `'json'` (always parsed), `'text'` (never), or a download: `'blob'`,
   * `'arrayBuffer'`, `'stream'`, answered to the caller and never stored (docs/RestEndpoint.md#downloads).
   * Default: JSON when the answer claims or looks like JSON, else text.
   */
  content?: ResponseContent | undefined;
  /** The page or cursor param: `endpoint.getPage` appends each page to the list (docs/pagination.md). */
  paginationField?: string | undefined;
  /**
   * The param of the page after `page` (a page's response as it arrived, or the list's for the
   * first), recorded with the list for `useInfinite`; `null` when there is none. Default: its `next<Field>` member
   * (`nextCursor` for `paginationField: 'cursor'`), else its `next` member (docs/useInfinite.md).
   */
  nextPageParam?: ((page: any) => unknown) | undefined;
  /**
   * The param of the page before `page` (a page's response, or the list's for the first), for
   * `useInfinite`'s `loadPrevious`; `null` when there is none. Default: its `previous<Field>`
   * member (`previousCursor`), else `previous`, else `prev` (docs/useInfinite.md).
   */
  previousPageParam?: ((page: any) => unknown) | undefined;
  /**
   * The most pages the list holds: a page loaded at one end drops the page at the other end
   * (a whole number, 1 or more; default no limit). Refetches fetch at most this many (docs/pagination.md).
   */
  maxPages?: number | undefined;
  /** ms between refetches while something subscribes (docs/live-data.md). */
  pollFrequency?: number | undefined;
  /** Sends a failed read again: network failures and 5xx, never 4xx (docs/live-data.md#retries). Default none. */
  retry?: RetryOptions | undefined;
  /** ms each try may take before it fails with TIMEOUT (docs/RestEndpoint.md#timeouts). Default: the cache's. */
  timeout?: number | undefined;
  /**
   * The value to show at once while the request is in flight, from the cache as it starts and
   * the request's args; the answer replaces it, a failure takes it back (docs/mutations.md).
   */
  getOptimisticResponse?: ((snap: OptimisticSnapshot, ...args: any[]) => unknown) | undefined;
}

/** The `searchParams` type marker of endpoint options. */
export type SearchOf<O> = O extends { searchParams: infer S extends object } ? S : unknown;
/** The `body` type marker of endpoint options. */
export type BodyOf<O> = O extends { body: infer B } ? B : unknown;
/** `true` for options whose method writes. */
export type IsMutation<O> = O extends { method: 'POST' | 'PUT' | 'PATCH' | 'DELETE' } ? true : false;

/**
 * The params object an endpoint takes: its path params and the search params its `searchParams`
 * marker names, and no others (a misspelt or unknown key is a type error; docs/RestEndpoint.md,
 * "Types"). An endpoint that takes none takes `{}` or nothing.
 */
export type RestParams<O extends RestEndpointOptions> = NoneIfEmpty<
  PathParams<O['path']> & (unknown extends SearchOf<O> ? {} : SearchOf<O>)
>;
/** An empty params type as one that refuses every key: `{}` alone would accept any object. */
type NoneIfEmpty<T> = [keyof T] extends [never] ? Record<string, never> : T;

/** The args of an endpoint: `(params)` for reads, `(params, body)` for mutations. */
export type RestArgs<O extends RestEndpointOptions> =
  IsMutation<O> extends true
    ? [params: RestParams<O>, body?: BodyOf<O>]
    : {} extends RestParams<O>
      ? [params?: RestParams<O>]
      : [params: RestParams<O>];

/** A guess taking `A`, written as a method's type: a narrower annotation (`params: { id: string }`) still fits. */
type Guess<A extends unknown[]> = { guess(snap: OptimisticSnapshot, ...args: A): unknown }['guess'];
/** The keys of the params a guess is annotated with that the endpoint does not take. */
type UnknownParams<O extends RestEndpointOptions> = O extends {
  getOptimisticResponse: (snap: never, params: infer P, ...rest: never[]) => unknown;
}
  ? 0 extends 1 & P
    ? never
    : Exclude<keyof P, keyof RestParams<O>>
  : never;
/**
 * What `getOptimisticResponse` must take: the endpoint's own params (an annotation may name a few,
 * or narrow one, but no other key) and its body, as every call of the endpoint is checked.
 */
type GuessCheck<O extends RestEndpointOptions> = {
  getOptimisticResponse?:
    | ([UnknownParams<O>] extends [never]
        ? Guess<[params: Partial<RestParams<O>>, body?: BodyOf<O>]>
        : `${UnknownParams<O> & string} is not a param of this endpoint`)
    | undefined;
};

/** An endpoint's `getOptimisticResponse`: it takes the endpoint's args. */
export type GuessOf<O extends RestEndpointOptions> = (snap: OptimisticSnapshot, ...args: RestArgs<O>) => unknown;
/** Options `E` (on top of `O`, for `extend`) whose guess is checked against the endpoint they make. */
export type GuessChecked<E, O = {}> = E & NoInfer<GuessCheck<Extended<O, E>>>;

/** The options of `base.extend(options)`: `options` win. */
export type Extended<O, E> = Omit<O, keyof E> & E extends infer R extends RestEndpointOptions ? R : never;

/** The `content` option of endpoint options (`undefined` without one). */
export type ContentOption<O> = O extends { content: infer C } ? C : undefined;
/** What `endpoint.fetch` resolves to: what `process` returns, else what `content` reads (`unknown` for JSON). */
export type FetchedOf<O> = O extends { process: (...args: any[]) => infer R }
  ? R
  : O extends { content: infer C extends ResponseContent }
    ? ContentData[C]
    : unknown;

/** The `schema` option of endpoint options (`undefined` without one). */
export type SchemaOption<O> = O extends { schema: infer S } ? S : undefined;

/** Where a list is stored: the request key of its endpoint, and its row (the Collection's table and pk). */
export interface ListPlace {
  readonly key: string;
  readonly table: string;
  readonly row: string;
}

/** What sends a page: the list's `getPage`, sent by the store as any endpoint is (with its request options). */
export interface PageRequestable {
  key(...args: any[]): string;
  request(args: readonly unknown[], signal?: AbortSignal, context?: RequestContext): Promise<unknown>;
}

/** A list endpoint with `paginationField`. */
export interface ListPagination {
  readonly kind: 'list';
  /** Where the list that a request with `args` writes is stored. */
  place(args: readonly unknown[]): ListPlace;
  /** The request of the page `param` of the list that `args` name: its `getPage` endpoint and args. */
  pageRequest(args: readonly unknown[], param: unknown): [endpoint: PageRequestable, args: readonly unknown[]];
  /** One response of the list: every response's items, in order, with the other members of the one at `members`. */
  combine(responses: readonly unknown[], members: number): unknown;
  /** The param of the page after the one `response` answered: `null` when none, `undefined` when it cannot tell. */
  next(response: unknown): unknown;
  /** As `next`, for the page before. */
  previous(response: unknown): unknown;
  /** The items of a response, or of its normalized result (the member the Collection sits at). */
  items(response: unknown): readonly unknown[] | undefined;
  /** The most pages the list holds (`maxPages`). */
  readonly maxPages?: number | undefined;
  /** A request of the list's first page alone, whatever pages it holds (`firstPageOnly`). */
  readonly firstOnly?: boolean;
}

/** `endpoint.getPage`. */
export interface PagePagination {
  readonly kind: 'page';
  /** Where the list that a page with `args` continues is stored. */
  place(args: readonly unknown[]): ListPlace;
  /** The page param in a page request's args. */
  param(args: readonly unknown[]): unknown;
  /** As `ListPagination.next`. */
  next(response: unknown): unknown;
  /** As `ListPagination.previous`. */
  previous(response: unknown): unknown;
  /** As `ListPagination.items`. */
  items(response: unknown): readonly unknown[] | undefined;
  /** As `ListPagination.maxPages`. */
  readonly maxPages?: number | undefined;
}

/** How the cache pages a list (`kind: 'list'`) or records a page (`kind: 'page'`). */
export type Pagination = ListPagination | PagePagination;

/** `sideEffect`'s type: `true` for a mutation method, `false` for a read (or no method), `boolean` for a wider method type. */
export type SideEffectOf<O> =
  IsMutation<O> extends true
    ? true
    : O extends { content: 'blob' | 'arrayBuffer' | 'stream' }
      ? true
      : O extends { method: infer M }
        ? [M] extends [undefined | 'GET' | 'HEAD' | 'OPTIONS']
          ? false
          : boolean
        : false;

/** The Collection of a schema: the schema itself, a member of an object schema (`{ results: collection }`), or a Query's. */
export type CollectionIn<S> =
  S extends Collection<any>
    ? S
    : S extends Query<infer Q, any>
      ? CollectionIn<Q>
      : S extends object
        ? { [K in keyof S]: S[K] extends Collection<any> ? S[K] : never }[keyof S]
        : never;
export type OpOf<S, N extends CollectionOpName> =
  CollectionIn<S> extends Collection<infer C> ? CollectionOp<C, N> : never;
