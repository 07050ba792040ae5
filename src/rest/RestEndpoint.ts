/**
 * RestEndpoint: a REST request described once (path template, method, schema, expiry), used by
 * the cache to fetch, key and store it. See docs/RestEndpoint.md.
 */

import type { CollectionOpName } from '../schema/CollectionOp.js';
import { describe, setupError } from '../base/errors.js';
import { stableStringify } from '../base/json.js';
import {
  checkMethod,
  checkParamName,
  checkPollFrequency,
  checkSharedOptions,
  isDownload,
  type RetryOptions,
} from '../base/endpointOptions.js';
import { NetworkError } from './NetworkError.js';
import { parseLoosely, readBody } from './responseBody.js';
import { isRawBody } from '../base/rawBody.js';
import { forStore, type RequestContext } from './requestContext.js';
import { findCollection, pageSchema, requirePageParam } from './pagination.js';
import { listPagination, pagePagination } from './listPages.js';
import type { PageOptions } from './paginationTypes.js';
import { paramsOf, pathTemplate, type PathTemplate } from './pathParams.js';
import type {
  ContentOption,
  Extended,
  FetchedOf,
  GuessChecked,
  GuessOf,
  HttpMethod,
  OpOf,
  Pagination,
  RestArgs,
  RestEndpointOptions,
  SchemaOption,
  SideEffectOf,
} from './types.js';

export type { Extended, HttpMethod, RestArgs, RestEndpointOptions, RestParams } from './types.js';

/** @internal Options for the endpoints a Collection endpoint derives, by op. */
export type OpOptions = { readonly [N in CollectionOpName]?: Partial<RestEndpointOptions> };

/** `endpoint.getPage`: the list endpoint with the page schema and the page field in its params. */
export type PageEndpoint<O extends RestEndpointOptions> = RestEndpoint<Extended<O, PageOptions<O>>>;

type OpEndpoint<O extends RestEndpointOptions, N extends CollectionOpName, M extends HttpMethod> = RestEndpoint<
  Extended<O, { method: M; schema: OpOf<SchemaOption<O>, N> }>
>;

const MUTATIONS = new Set<string>(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * A REST endpoint. Reads take `(params)`; params that are not in the path go to the query string.
 * Mutations take `(params, body)`; the body is sent as JSON, or as it is for a FormData, Blob,
 * URLSearchParams or ArrayBuffer.
 *
 * @example
 * ```ts
 * const getPosts = new RestEndpoint({
 *   path: '/:group/posts',
 *   searchParams: {} as { orderBy?: string; author?: string },
 *   schema: new Collection([Post]),
 * });
 * getPosts.url({ group: 'react', orderBy: 'title' }); // '/react/posts?orderBy=title'
 * await store.dispatch(cache.fetch(getPosts, { group: 'react' }));
 * await store.dispatch(cache.fetch(getPosts.push, { group: 'react' }, { title: 'New' }));
 * ```
 * @see docs/RestEndpoint.md
 */
export class RestEndpoint<const O extends RestEndpointOptions = RestEndpointOptions> {
  declare readonly path: O['path'];
  declare readonly schema: SchemaOption<O>;
  declare readonly method: HttpMethod;
  declare readonly urlPrefix: string;
  declare readonly dataExpiryLength: number | undefined;
  declare readonly errorExpiryLength: number | undefined;
  /** Stale data reads as invalid (readers suspend and fetch) rather than shown while it is refetched. */
  declare readonly invalidIfStale: boolean;
  /** ms between refetches while something subscribes; `undefined`: subscribing polls nothing. */
  declare readonly pollFrequency: number | undefined;
  /** How a failed read is tried again (reads only); `undefined`: never. */
  declare readonly retry: RetryOptions | undefined;
  /** ms each try may take before it fails with TIMEOUT; `undefined`: the cache's. */
  declare readonly timeout: number | undefined;
  /** How a 2xx body is read: a download (`blob`, `arrayBuffer`, `stream`) is the caller's alone. */
  declare readonly content: ContentOption<O>;
  /** Mutations and downloads are never shared between callers, and always run. */
  declare readonly sideEffect: SideEffectOf<O>;
  /** The optimistic value of a request (docs/mutations.md); `undefined` unless the options give one. */
  declare readonly getOptimisticResponse?: GuessOf<O>;
  declare private readonly template: PathTemplate;
  private readonly ops = new Map<CollectionOpName, RestEndpoint<any>>();
  /** Options each derived op gets on top of its own (resource's optimistic creates); `extend` passes them on. */
  declare private readonly opOptions: OpOptions;

  /** The options it was made with; `extend` starts from them. */
  declare readonly options: O;

  /** @param opOptions @internal What `resource()` gives the list's `push` and `unshift`. */
  constructor(options: GuessChecked<O>, opOptions: OpOptions = {}) {
    this.options = options;
    this.opOptions = opOptions;
    if (typeof options?.path !== 'string') {
      throw setupError(
        'INVALID_SCHEMA',
        process.env.NODE_ENV !== 'production' && [
          `A RestEndpoint needs a path string; received ${describe(options?.path)}.`,
          "Pass one: new RestEndpoint({ path: '/users/:id', schema: User }).",
        ],
      );
    }
    this.path = options.path;
    this.schema = options.schema as SchemaOption<O>;
    this.method = checkMethod(options.method, process.env.NODE_ENV !== 'production' && options.path) as HttpMethod;
    const where = process.env.NODE_ENV !== 'production' && `${this.method} ${this.path}`;
    checkParamName(options.paginationField, process.env.NODE_ENV !== 'production' && 'paginationField', where);
    this.pollFrequency = checkPollFrequency(options.pollFrequency, where);
    checkSharedOptions(options, where);
    this.urlPrefix = options.urlPrefix ?? '';
    this.dataExpiryLength = options.dataExpiryLength;
    this.errorExpiryLength = options.errorExpiryLength;
    this.invalidIfStale = options.invalidIfStale ?? false;
    this.content = options.content as ContentOption<O>;
    this.sideEffect = (MUTATIONS.has(this.method) || isDownload(options.content)) as SideEffectOf<O>;
    this.retry = options.retry;
    this.timeout = options.timeout;
    this.template = pathTemplate(options.path);
    this.getOptimisticResponse = options.getOptimisticResponse;
  }

  /** The URL for args: the prefix, the filled path, then the other params, sorted, as a query string. */
  url(...args: RestArgs<O>): string {
    const params = paramsOf(args[0], this.path);
    const search = new URLSearchParams();
    for (const name of Object.keys(params).sort()) {
      const value = params[name];
      // null and undefined mean "not given", as for path params.
      if (value === undefined || value === null || this.template.names.has(name)) continue;
      for (const item of Array.isArray(value) ? value : [value]) {
        if (item === undefined || item === null) continue;
        const plain = typeof item !== 'object' && typeof item !== 'function' && typeof item !== 'symbol';
        search.append(name, plain ? String(item) : stableStringify(item));
      }
    }
    const query = search.toString();
    return `${this.urlPrefix}${this.template.fill(params)}${query ? `?${query}` : ''}`;
  }

  /** The request key: `METHOD url`, plus the body for mutations. Args in any key order give the same key. */
  key(...args: RestArgs<O>): string {
    const key = `${this.method} ${this.url(...args)}`;
    // A form, a file or bytes are not written into the key (a large upload would make a large key).
    return this.sideEffect && args[1] !== undefined && !isRawBody(args[1]) ? `${key} ${stableStringify(args[1])}` : key;
  }

  /** Requests the endpoint with the global `fetch`; resolves to the processed response body. */
  fetch(...args: RestArgs<O>): Promise<FetchedOf<O>> {
    return this.request(args) as Promise<FetchedOf<O>>;
  }

  /**
   * The request behind `fetch`, with an AbortSignal and the store's request options
   * (docs/authentication.md): the steps below, each of which a subclass may override (sync or
   * async), then `process`. The signal is set on the init after `getRequestInit`.
   */
  async request(args: readonly unknown[], signal?: AbortSignal, context?: RequestContext): Promise<unknown> {
    // A read sends no body, whatever its args hold.
    const init = await this.getRequestInit(this.sideEffect ? args[1] : undefined);
    const url = this.url(...(args as RestArgs<O>));
    const [input, sent, send] = context ? await forStore(url, init, context) : [url, init];
    const response = await this.fetchResponse(input, signal ? { ...sent, signal } : sent, send);
    const value = await this.parseResponse(response);
    return this.options.process ? this.options.process(value, ...args) : value;
  }

  /** The headers to send, from those the endpoint would send (a plain object, names in lower case). */
  getHeaders(headers: HeadersInit): HeadersInit | Promise<HeadersInit> {
    return headers;
  }

  /** The fetch init: `method`, `headers` (through `getHeaders`), and the body as JSON text, or a form, file or bytes as they are. */
  getRequestInit(body: unknown): RequestInit | Promise<RequestInit> {
    // Lower-case names: a user's content-type replaces ours.
    const headers: Record<string, string> = { accept: 'application/json' };
    const given = this.options.headers ?? {};
    for (const name in given) headers[name.toLowerCase()] = given[name]!;
    // A form, file or bytes go as they are (fetch types them); else the key's text: canonical, BigInts as decimals.
    if (body !== undefined && !isRawBody(body)) {
      body = stableStringify(body);
      headers['content-type'] ??= 'application/json';
    }
    return (async () => ({ method: this.method, headers: await this.getHeaders(headers), body: body as BodyInit }))();
  }

  /**
   * Sends the request with `send`: the store's `fetch` when it has one, else the global `fetch`
   * (an override passes `send` on to `super`). A non-2xx answer rejects with NetworkError.
   */
  async fetchResponse(
    input: RequestInfo,
    init: RequestInit,
    send: (input: string, init: RequestInit) => Promise<Response> = fetch,
  ): Promise<Response> {
    // request() passes the URL string; the error names it.
    const response = await send(input as string, init);
    if (!response.ok)
      throw new NetworkError(this.method, input as string, response, parseLoosely(await response.text()));
    return response;
  }

  /** The body of a 2xx answer, read as `content` says (else JSON when it claims or looks like JSON, else text). */
  async parseResponse(response: Response): Promise<unknown> {
    return readBody(response, this.content, this.method);
  }

  /** A new endpoint with these options changed; its `push`, `unshift`, ... are derived as this one's are. */
  extend<const E extends Partial<RestEndpointOptions>>(options: GuessChecked<E, O>): RestEndpoint<Extended<O, E>> {
    // A subclass's endpoints derive instances of it, so its request steps apply to them too.
    const Endpoint = this.constructor as typeof RestEndpoint;
    return new Endpoint({ ...this.options, ...options } as unknown as Extended<O, E>, this.opOptions);
  }

  /** POSTs an item, then appends it to every cached list its args match (docs/Collection.md). */
  get push(): OpEndpoint<O, 'push', 'POST'> {
    return this.op('push', 'POST') as never;
  }

  /** POSTs an item, then prepends it to every matching cached list. */
  get unshift(): OpEndpoint<O, 'unshift', 'POST'> {
    return this.op('unshift', 'POST') as never;
  }

  /** POSTs map entries, then merges them into every matching cached map (Values collections). */
  get assign(): OpEndpoint<O, 'assign', 'POST'> {
    return this.op('assign', 'POST') as never;
  }

  /** PATCHes, then removes the returned items from every matching cached list. */
  get remove(): OpEndpoint<O, 'remove', 'PATCH'> {
    return this.op('remove', 'PATCH') as never;
  }

  /** PATCHes, then moves the returned items between the cached lists they leave and join. */
  get move(): OpEndpoint<O, 'move', 'PATCH'> {
    return this.op('move', 'PATCH') as never;
  }

  private op(name: CollectionOpName, method: HttpMethod): RestEndpoint<any> {
    let endpoint = this.ops.get(name);
    if (endpoint) return endpoint;
    const schema = this.schema as unknown;
    const collection = findCollection(schema)?.collection;
    if (!collection) {
      throw setupError(
        'INVALID_SCHEMA',
        process.env.NODE_ENV !== 'production' && [
          `endpoint.${name} needs a Collection schema, but ${this.method} ${this.path} has ${describe(schema)}.`,
          'Give the endpoint a Collection: new RestEndpoint({ path, schema: new Collection([Post]) }), or { results: new Collection([Post]) }.',
        ],
      );
    }
    // A create answers with the item, not with the list's envelope: the op's schema is the item's.
    endpoint = this.extend({ method, schema: collection[name] as unknown, ...this.opOptions[name] });
    this.ops.set(name, endpoint);
    return endpoint;
  }

  // ---- Pagination (docs/pagination.md) ----

  declare private pageEndpoint: RestEndpoint<any> | undefined;
  declare private paging: Pagination | null | undefined;

  /** @internal How the cache refetches the pages this list holds; `undefined` unless it pages. */
  get pagination(): Pagination | undefined {
    if (this.paging === undefined) {
      const where = process.env.NODE_ENV !== 'production' ? `${this.method} ${this.path}` : '';
      this.paging = listPagination(this, () => this.getPage, where) ?? null;
    }
    return this.paging ?? undefined;
  }

  /**
   * Fetches one page: args are the list's args plus the `paginationField` param. Its items are
   * appended (each once) to the list stored for the args without that param; other members of an
   * object response (`nextCursor`) stay readable from this page's own stored response.
   */
  get getPage(): PageEndpoint<O> {
    if (this.pageEndpoint) return this.pageEndpoint as never;
    const field = this.options.paginationField;
    const where = process.env.NODE_ENV !== 'production' ? `${this.method} ${this.path}` : '';
    const schema = pageSchema(this.schema, field as string, this.template, where, args =>
      this.key(...(args as RestArgs<O>)),
    );
    const page = pagePagination(this, field as string);
    this.pageEndpoint = requirePageParam(this.extend({ schema }), field as string, where, page);
    return this.pageEndpoint as never;
  }
}
