/** Collection: a list (or map) of entities stored per args, that creates and moves reach. See docs/Collection.md. */

import { describe, inputError, setupError } from '../base/errors.js';
import { isSkipArgs } from '../base/json.js';
import type {
  DenormalizeDelegate,
  NormalizeDelegate,
  QueryDelegate,
  RootInput,
  RowPolicy,
  SchemaConstruct,
} from './contract.js';
import { readList, readMap } from './members.js';
import {
  checkCollectionOptions,
  checkMerge,
  defaultArgsKey,
  nonFilterPredicate,
  pkOf,
  withParams,
  pkMatches,
  type NonFilterArgumentKeys,
} from './collectionKey.js';
import type { CollectionLike, CollectionMerge, CreateCollectionFilter } from './CollectionLike.js';
import { CollectionOp, type CollectionOpName } from './CollectionOp.js';
import { CollectionPage } from './CollectionPage.js';
import { checkShape, classOfItem, memberKeyOf, polyClassOf, polymorphicKey, polyOf } from './collectionMember.js';
import { readsMembers, type EntityClass } from './Entity.js';
import { memberOf, normalizeArray } from './plainArray.js';
import { uniqueRefs } from './refs.js';
import type { Values } from './Values.js';

export interface CollectionOptions {
  /** The object that names a list, from the request args. Default: a shallow copy of `args[0]`. */
  argsKey?: ((...args: any[]) => object) | undefined;
  /** For a Collection inside an entity: the list's pk object from the parent entity and field name. */
  nestKey?: ((parent: any, key: string) => object) | undefined;
  /** Args that sort or page rather than filter; creates reach lists whatever their values. Default `/^order/`. */
  nonFilterArgumentKeys?: NonFilterArgumentKeys | undefined;
  /** Which stored lists creates, removals and moves reach, from their args; replaces the default matching. */
  createCollectionFilter?: CreateCollectionFilter | undefined;
}

/**
 * A list replaced on refetch (docs/Collection.md): an older response never replaces a newer one, and within one
 * write the later list wins.
 */
const listPolicy: RowPolicy = {
  merge: (existing, incoming) => incoming,
  shouldReorder: (existingMeta, incomingMeta) => incomingMeta.fetchedAt < existingMeta.fetchedAt,
};

/**
 * A list of entities keyed by the request's args, shared by every endpoint and entity field that
 * names the same args, and kept current by `push`, `unshift`, `assign`, `remove` and `move`.
 *
 * @example
 * ```ts
 * const getPosts = new Collection([Post], { argsKey: ({ group, orderBy }) => ({ group, orderBy }) });
 * dispatch(cache.set(getPosts.push, { group: 'react' }, { id: '9', title: 'New' }));
 * ```
 * @see docs/Collection.md
 */
export class Collection<S extends readonly [unknown] | Values<any> = readonly [unknown] | Values<any>>
  implements SchemaConstruct, CollectionLike
{
  readonly kind = 'Collection' as const;
  declare readonly schema: S;
  /** The table every collection over the same member shares: `[Post]`, or `{Post}` for a map. */
  declare readonly key: string;
  declare readonly rootInput: RootInput;
  /** @internal */
  declare readonly isValues: boolean;
  declare private readonly argsKeyFn: (...args: any[]) => object;
  declare private readonly nestKeyFn: ((parent: any, key: string) => object) | undefined;
  declare private readonly member: unknown;
  /**
   * Who a list is built for in the read memo: the member schema, so collections over the same
   * member (a nested one and an endpoint's) read one row as one array (docs/Collection.md).
   */
  declare private readonly owner: object;
  private readonly ops = new Map<CollectionOpName, CollectionOp<S, CollectionOpName>>();

  constructor(schema: S, options: CollectionOptions = {}) {
    this.schema = schema;
    this.isValues = polyOf(schema, 'Values') !== undefined;
    if (!this.isValues && !Array.isArray(schema)) {
      throw setupError(
        'INVALID_SCHEMA',
        process.env.NODE_ENV !== 'production' && [
          `new Collection() takes [Entity] or new Values(Entity); received ${describe(schema)}.`,
          'Write new Collection([Post]) for a list, or new Collection(new Values(Post)) for a map keyed by pk.',
        ],
      );
    }
    this.member = this.isValues ? (schema as Values).schema : memberOf(schema as readonly unknown[]);
    const poly = this.isValues ? (schema as Values).poly : undefined;
    const memberKey =
      poly && !poly.isSingle ? polymorphicKey(poly.members) : memberKeyOf(this.isValues ? poly!.single : this.member);
    this.key = this.isValues ? `{${memberKey}}` : `[${memberKey}]`;
    const single = poly ? (poly.isSingle ? poly.single : undefined) : this.member;
    this.owner = typeof single === 'object' || typeof single === 'function' ? (single as object) : (schema as object);
    this.rootInput = this.isValues ? 'object' : 'list';
    if (process.env.NODE_ENV !== 'production') checkCollectionOptions(options);
    this.argsKeyFn = options.argsKey ?? defaultArgsKey;
    this.nestKeyFn = options.nestKey;
    // Options replace the methods, as in data-client; without them a subclass may override the methods.
    if (options.nonFilterArgumentKeys) this.nonFilterArgumentKeys = nonFilterPredicate(options.nonFilterArgumentKeys);
    if (options.createCollectionFilter) this.createCollectionFilter = options.createCollectionFilter;
  }

  /**
   * The test of which stored lists an op with these args reaches, given each list's pk object: by
   * default, each filter key has an equal value in the params or the body. The option, or an override, replaces it.
   */
  createCollectionFilter(...args: any[]): (collectionKey: Record<string, any>) => boolean {
    return collectionKey => pkMatches(collectionKey, args, this);
  }

  /** A create schema placing items with `merge(stored refs, new refs)` in the lists the filter picks. */
  addWith(
    merge: CollectionMerge,
    createCollectionFilter?: CreateCollectionFilter,
  ): CollectionOp<S, S extends Values<any> ? 'assign' : 'push'> {
    if (process.env.NODE_ENV !== 'production') checkMerge(merge, createCollectionFilter);
    return new CollectionOp(this, this.isValues ? 'assign' : 'push', merge, createCollectionFilter) as never;
  }

  /** A move schema placing items with `merge(stored refs, moved refs)` in the lists they join. */
  moveWith(merge: CollectionMerge, createCollectionFilter?: CreateCollectionFilter): CollectionOp<S, 'move'> {
    if (process.env.NODE_ENV !== 'production') checkMerge(merge, createCollectionFilter);
    return new CollectionOp(this, 'move', merge, createCollectionFilter);
  }

  /**
   * True for an args key that sorts or pages rather than filters (docs/Collection.md): by default
   * keys starting with `order`. The `nonFilterArgumentKeys` option, or an override as in data-client, replaces it.
   */
  nonFilterArgumentKeys(key: string): boolean {
    return key.startsWith('order');
  }

  /** Appends created items to every stored list their args match. Array collections only. */
  get push(): CollectionOp<S, 'push'> {
    return this.op('push', false);
  }

  /** Prepends created items to every stored list their args match. Array collections only. */
  get unshift(): CollectionOp<S, 'unshift'> {
    return this.op('unshift', false);
  }

  /** Merges `{ key: item }` entries into every stored map their args match. Values collections only. */
  get assign(): CollectionOp<S, 'assign'> {
    return this.op('assign', true);
  }

  /** Takes items out of every stored collection their args match (every one, for empty args). */
  get remove(): CollectionOp<S, 'remove'> {
    return this.op('remove');
  }

  /** Moves items from the collections their old values match to those their new values match. */
  get move(): CollectionOp<S, 'move'> {
    return this.op('move');
  }

  /** The pk string of the list that `args` name (docs/Collection.md). */
  pk(...args: readonly unknown[]): string {
    return this.keyOf(this.argsKeyFn, withParams(args), 'argsKey');
  }

  /** @internal */
  normalize(input: unknown, parent: unknown, key: string | undefined, delegate: NormalizeDelegate): unknown {
    const pk =
      this.nestKeyFn !== undefined && parent !== undefined && key !== undefined
        ? this.keyOf(this.nestKeyFn, [parent, key], 'nestKey')
        : this.keyOf(this.argsKeyFn, withParams(delegate.args), 'argsKey');
    delegate.setRow(this.key, pk, this.writeRow(input, parent, key, delegate), listPolicy);
    return pk;
  }

  /** @internal The stored row's members, memoized against the row (so nested and top-level reads share it). */
  denormalize(input: unknown, delegate: DenormalizeDelegate): unknown {
    if (typeof input !== 'string') return input;
    return delegate.entity(this.key, input, (row, hold) => this.readRow(row, hold, delegate), this.owner);
  }

  /** @internal Readable whenever the row for these args exists, an empty list included. */
  queryKey(args: readonly unknown[], delegate: QueryDelegate): unknown {
    if (isSkipArgs(args)) return undefined;
    // Reads never throw for args that cannot name a list: such a list is simply not cached.
    const pk = pkOf(this.argsKeyFn(...withParams(args)));
    return pk === undefined || delegate.row(this.key, pk) === undefined ? undefined : pk;
  }

  /** @internal An item's ref, as the list stores it. */
  normalizeMember(item: unknown, parent: unknown, key: string | undefined, delegate: NormalizeDelegate): unknown {
    return this.isValues
      ? (this.schema as Values).poly.normalizeValue(item, parent, key, delegate)
      : delegate.visit(this.member, item, parent, key);
  }

  /** @internal */
  denormalizeMember(ref: unknown, delegate: DenormalizeDelegate): unknown {
    return this.isValues
      ? (this.schema as Values).poly.denormalizeValue(ref, delegate)
      : delegate.unvisit(this.member, ref);
  }

  /** @internal The entity class an item would be stored as (for `move`), if it can be told. */
  memberClass(item: unknown): EntityClass | undefined {
    return this.isValues ? polyClassOf((this.schema as Values).poly, item) : classOfItem(this.member, item);
  }

  private writeRow(input: unknown, parent: unknown, key: string | undefined, delegate: NormalizeDelegate): object {
    if (this.isValues) {
      checkShape(this, input, false, key);
      return (this.schema as Values).normalize(input, parent, key, delegate) as object;
    }
    checkShape(this, input, true, key);
    // A list never holds a ref twice (a page that repeats an item lists it once, where it first appears).
    return uniqueRefs(normalizeArray(this.schema as readonly unknown[], input, parent, key, delegate) as unknown[]);
  }

  private readRow(row: object, hold: (value: object) => void, delegate: DenormalizeDelegate): unknown {
    // Held before it is filled, so a member that leads back to this list gets this very container.
    const values = Array.isArray(row) ? [] : {};
    hold(values);
    return this.readMembers(row, delegate, values);
  }

  /** @internal Stored refs (a list, or a map for Values collections) → their members, as read. */
  readMembers(refs: object, delegate: DenormalizeDelegate, into?: object): unknown {
    const read = this.isValues
      ? (ref: unknown) => this.denormalizeMember(ref, delegate)
      : readsMembers(this.member, delegate);
    return Array.isArray(refs)
      ? readList(refs, read, into as unknown[] | undefined)
      : readMap(refs as Record<string, unknown>, read, into as Record<string, unknown> | undefined);
  }

  /** The pk `fn` gives for `args`, or UNEXPECTED_INPUT on write when it gives no object. */
  private keyOf(fn: (...args: any[]) => unknown, args: readonly unknown[], name: 'argsKey' | 'nestKey'): string {
    const pkObject = fn(...args);
    const pk = pkOf(pkObject);
    if (pk !== undefined) return pk;
    throw inputError(
      'UNEXPECTED_INPUT',
      process.env.NODE_ENV !== 'production' &&
        (fn === defaultArgsKey
          ? [
              `Collection ${this.key} names its lists by the params object (args[0]), but received ${describe(args[0])}.`,
              'Pass the params as an object ({ group: "react" }), or give the Collection an argsKey option.',
            ]
          : [
              `Collection ${this.key} needs an object to name the list, but its ${name} returned ${describe(pkObject)}.`,
              `Make ${name} return an object, such as ${name === 'nestKey' ? '{ userId: parent.id }' : '{ group: params.group }'}.`,
            ]),
      this.key,
    );
  }

  /**
   * @internal The schema of one page of this list (`endpoint.getPage`): made here, so that a bundle
   * without Collection does not hold CollectionPage.
   */
  page(field: string, listKey: (args: readonly unknown[]) => string): CollectionPage {
    return new CollectionPage(this, field, listKey);
  }

  private op<O extends CollectionOpName>(name: O, forValues?: boolean): CollectionOp<S, O> {
    if (forValues !== undefined && forValues !== this.isValues) {
      throw setupError(
        'INVALID_SCHEMA',
        process.env.NODE_ENV !== 'production' && [
          `Collection ${this.key} has no .${name}: ${forValues ? 'assign works on maps (Values)' : `${name} works on lists`}.`,
          forValues
            ? 'Use .push or .unshift on a list Collection.'
            : 'Use .assign on a Collection(new Values(Entity)).',
        ],
      );
    }
    let op = this.ops.get(name);
    if (!op) this.ops.set(name, (op = new CollectionOp(this, name)));
    return op as CollectionOp<S, O>;
  }
}
