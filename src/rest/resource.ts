/**
 * resource(): the five endpoints of a REST resource made from one path and one schema
 * (docs/resource.md).
 */

import { isObject, isRecord } from '../base/dict.js';
import { Collection, type CollectionOptions } from '../schema/Collection.js';
import type { EntityClass } from '../schema/Entity.js';
import type { Invalidate } from '../schema/Invalidate.js';
import type { Union } from '../schema/Union.js';
import type { Denormalize } from '../schema/types.js';
import { describe, setupError } from '../base/errors.js';
import type { OptimisticSnapshot } from './OptimisticSnapshot.js';
import { RestEndpoint, type RestEndpointOptions } from './RestEndpoint.js';
import { Deletion } from './deletion.js';

export interface ResourceOptions extends Omit<
  RestEndpointOptions,
  'method' | 'body' | 'schema' | 'getOptimisticResponse'
> {
  /** The item's path, ending in its id param: `'/:group/posts/:id'`. The list's path drops that last segment. */
  path: string;
  /** The item's Entity class, or a Union of them (`delete` then deletes the member its answer names). */
  schema: EntityClass | Union;
  /** The list's query-string params (a type marker); the list's endpoint alone takes them. */
  searchParams?: object | undefined;
  /** The list's page or cursor param: `getList.getPage` (docs/pagination.md). */
  paginationField?: string | undefined;
  /**
   * Show each mutation's expected result at once, before the server answers, and take it back if
   * the request fails (docs/resource.md, "Optimistic"). Default `false`.
   */
  optimistic?: boolean | undefined;
  /**
   * Options of the list's Collection (docs/Collection.md): `argsKey` names the list from the
   * params, `nonFilterArgumentKeys` the params that sort or page rather than filter,
   * `createCollectionFilter` which stored lists a create reaches.
   */
  collection?: ResourceCollectionOptions | undefined;
  /**
   * The class the five endpoints are made with: a subclass of RestEndpoint that overrides its
   * request steps (`getHeaders`, ...). Default `RestEndpoint`.
   */
  Endpoint?: RestEndpointClass | undefined;
}

/** RestEndpoint or a subclass of it, made as `new Endpoint(options)`. */
export type RestEndpointClass = new (options: any, ...rest: any[]) => RestEndpoint<any>;

/** The Collection options that apply to a top-level list (`nestKey` is for a list inside an entity). */
export type ResourceCollectionOptions = Pick<
  CollectionOptions,
  'argsKey' | 'nonFilterArgumentKeys' | 'createCollectionFilter'
>;

/** `'/:group/posts/:id'` → `'/:group/posts'`: the path without its last segment. */
export type ListPath<P extends string> = P extends `${infer Head}/${infer Tail}`
  ? Tail extends `${string}/${string}`
    ? `${Head}/${ListPath<Tail>}`
    : Head extends ''
      ? '/'
      : Head
  : P;

type Shared<O> = Omit<
  O,
  'path' | 'schema' | 'searchParams' | 'paginationField' | 'optimistic' | 'collection' | 'Endpoint'
>;
/** An endpoint of `resource({ Endpoint })`: the members the subclass adds come along (overrides change no type). */
type Of<O, T> = O extends { Endpoint: infer C extends RestEndpointClass } ? T & Omit<InstanceType<C>, keyof T> : T;
/** The fields a body sends: a nested entity's own fields, or its id, as the cache stores either. */
type Fields<S> = S extends EntityClass
  ? {
      [K in keyof Omit<Denormalize<S>, 'pk'>]?: K extends keyof SchemaOf<S>
        ? ById<SchemaOf<S>[K], Denormalize<S>[K]>
        : Denormalize<S>[K];
    }
  : Record<string, unknown>;
type SchemaOf<S> = S extends { schema?: infer F } ? (F extends object ? F : {}) : {};
type ById<X, V> = X extends EntityClass
  ? Fields<X> | string | number
  : X extends readonly (infer M extends EntityClass)[]
    ? (Fields<M> | string | number)[]
    : V;

type ItemOptions<O extends ResourceOptions, M extends string | undefined, S> = Shared<O> & {
  path: O['path'];
  schema: S;
} & (M extends string ? { method: M; body: Fields<O['schema']> } : {});
type ListOptions<O extends ResourceOptions> = Shared<O> & {
  path: ListPath<O['path']>;
  schema: Collection<readonly [O['schema']]>;
  /** What `getList.push` and the other list ops send: one item or a list of them. */
  body: Fields<O['schema']> | Fields<O['schema']>[];
} & (O extends { searchParams: infer S } ? { searchParams: S } : {}) &
  (O extends { paginationField: infer F } ? { paginationField: F } : {});

/** The endpoints `resource()` returns. */
export interface Resource<O extends ResourceOptions> {
  /** GET the item. */
  get: Of<O, RestEndpoint<ItemOptions<O, undefined, O['schema']>>>;
  /** GET the list, a Collection: `getList.push` creates, `getList.getPage` pages. */
  getList: Of<O, RestEndpoint<ListOptions<O>>>;
  /** PUT the item. */
  update: Of<O, RestEndpoint<ItemOptions<O, 'PUT', O['schema']>>>;
  /** PATCH some of the item's fields. */
  partialUpdate: Of<O, RestEndpoint<ItemOptions<O, 'PATCH', O['schema']>>>;
  /** DELETE the item; it is then removed from the cache (Invalidate), and the call resolves to the item the answer named. */
  delete: Of<O, RestEndpoint<ItemOptions<O, 'DELETE', Invalidate<O['schema']>>>>;
}

/**
 * The endpoints of a REST resource: `get`, `getList` (a Collection, so `getList.push` creates),
 * `update` (PUT), `partialUpdate` (PATCH) and `delete` (DELETE, read as `Invalidate(schema)`).
 * Every other option (`urlPrefix`, expiry lengths, headers) applies to all five; `Endpoint` names
 * the class they are made with (a RestEndpoint subclass with its own request steps).
 *
 * @example
 * ```ts
 * const PostResource = resource({ path: '/:group/posts/:id', schema: Post, searchParams: {} as { orderBy?: string } });
 * await store.dispatch(cache.fetch(PostResource.getList, { group: 'react' }));          // GET /react/posts
 * await store.dispatch(cache.fetch(PostResource.getList.push, { group: 'react' }, { title: 'New' }));
 * await store.dispatch(cache.fetch(PostResource.partialUpdate, { group: 'react', id: '1' }, { title: 'Renamed' }));
 * await store.dispatch(cache.fetch(PostResource.delete, { group: 'react', id: '1' }));  // gone from every list
 * ```
 * @see docs/resource.md
 */
export function resource<const O extends ResourceOptions>(options: O): Resource<O> {
  const {
    path,
    schema,
    searchParams,
    paginationField,
    optimistic,
    collection,
    Endpoint = RestEndpoint,
    ...shared
  } = options ?? ({} as O);
  if (
    Endpoint !== RestEndpoint &&
    !((Endpoint as unknown as { prototype?: unknown })?.prototype instanceof RestEndpoint)
  ) {
    throw setupError(
      'INVALID_OPTION',
      process.env.NODE_ENV !== 'production' && [
        `resource({ Endpoint }) takes RestEndpoint or a class that extends it, but received ${describe(Endpoint)}.`,
        'Pass the class itself: class AuthedEndpoint extends RestEndpoint { ... }; resource({ path, schema, Endpoint: AuthedEndpoint }).',
      ],
    );
  }
  const listPath = listPathOf(path);
  const item = { ...shared, path, schema };
  const list: RestEndpointOptions = {
    ...shared,
    path: listPath,
    schema: new Collection(
      [schema],
      process.env.NODE_ENV !== 'production' ? collectionOptions(collection) : (collection ?? {}),
    ),
  };
  if (searchParams !== undefined) list.searchParams = searchParams;
  if (paginationField !== undefined) list.paginationField = paginationField;
  if (optimistic !== undefined && typeof optimistic !== 'boolean') {
    throw setupError(
      'INVALID_SCHEMA',
      process.env.NODE_ENV !== 'production' && [
        `resource({ optimistic }) takes true or false, but received ${describe(optimistic)}.`,
        'Pass optimistic: true to show each mutation at once, or leave it out (false).',
      ],
    );
  }
  const guess = optimistic === true ? guesses() : undefined;
  // The guesses of creates go with the list, so `getList.extend(...).push` keeps them.
  const creates = guess && { getOptimisticResponse: guess.create };
  return {
    get: new Endpoint(item),
    getList: new Endpoint(list, creates && { push: creates, unshift: creates }),
    update: new Endpoint({ ...item, method: 'PUT', ...(guess && { getOptimisticResponse: guess.edit }) }),
    partialUpdate: new Endpoint({ ...item, method: 'PATCH', ...(guess && { getOptimisticResponse: guess.edit }) }),
    delete: new Endpoint({
      ...item,
      method: 'DELETE',
      schema: new Deletion(schema),
      ...(guess && { getOptimisticResponse: guess.remove }),
      // Servers often answer a delete with no body (or `{}`): the params then name the item.
      process: (value: unknown, ...args: unknown[]) => {
        const processed = shared.process ? shared.process(value, ...args) : value;
        return namesItem(processed) ? processed : args[0];
      },
    }),
  } as never;
}

/**
 * The guesses of `optimistic: true` (docs/resource.md): a create shows the body as sent; an edit
 * shows the cached item with the body's fields over it: the params (which name it) and the body,
 * merged into the row as an answer is, so what the row holds stays and no field is read back
 * from its class's defaults; a delete removes the item the params name.
 */
function guesses() {
  const edit = (_snap: OptimisticSnapshot, params: object, body: unknown): unknown => ({
    ...params,
    ...(body as object),
  });
  return {
    create: (_snap: OptimisticSnapshot, _params: unknown, body: unknown): unknown => body,
    edit,
    remove: (_snap: OptimisticSnapshot, params: object): unknown => params,
  };
}

/**
 * Only the options of a top-level list are taken, so a misspelt or misplaced one is not silently
 * ignored (development only, as Collection's own option checks: docs/production.md).
 */
function collectionOptions(options: unknown): ResourceCollectionOptions {
  if (options === undefined) return {};
  const others = isRecord(options)
    ? Object.keys(options).filter(
        name => !['argsKey', 'nonFilterArgumentKeys', 'createCollectionFilter'].includes(name),
      )
    : undefined;
  if (others?.length === 0) return options as ResourceCollectionOptions;
  throw setupError(
    'INVALID_SCHEMA',
    process.env.NODE_ENV !== 'production' && [
      others
        ? `resource({ collection }) takes argsKey, nonFilterArgumentKeys and createCollectionFilter, but received ${others.map(name => JSON.stringify(name)).join(', ')}.`
        : `resource({ collection }) takes an object of Collection options, but received ${describe(options)}.`,
      'Pass the options of the list: resource({ path, schema, collection: { argsKey: ({ group }) => ({ group }) } }). A Collection nested in an entity takes nestKey itself.',
    ],
  );
}

function listPathOf(path: unknown): string {
  if (typeof path !== 'string' || !/\/:[^/{}]+$/.test(path)) {
    throw setupError(
      'INVALID_SCHEMA',
      process.env.NODE_ENV !== 'production' && [
        `resource() needs the item's path, ending in its id param ('/posts/:id'), but received ${describe(path)}.`,
        "Pass the path of one item: resource({ path: '/:group/posts/:id', schema: Post }); the list's path is that without its last segment.",
      ],
    );
  }
  const list = path.slice(0, path.lastIndexOf('/'));
  return list === '' ? '/' : list;
}

/**
 * Whether a delete's answer names the item, as data-client tells: an object with fields, or a pk
 * string (read then as `Invalidate` reads a pk). Anything else (no body, `{}`, a number, which may
 * be a count of deleted rows) leaves it to the params.
 */
function namesItem(value: unknown): boolean {
  if (typeof value === 'string') return value !== '';
  return isObject(value) && Object.keys(value).length > 0;
}
