/**
 * One page of a paginated list (docs/pagination.md): its items are normalized like the list's
 * members and appended, each at most once, to the list stored for the same args without the page
 * field. The page's own result is its list of refs.
 */

import { describe, inputError, setupError } from '../base/errors.js';
import type { DenormalizeDelegate, NormalizeDelegate, RootInput, SchemaConstruct } from './contract.js';
import type { CollectionLike } from './CollectionLike.js';
import { withoutField } from './collectionKey.js';
import { continuesList, deltaPolicy, refsNotIn, uniqueRefs } from './refs.js';

/**
 * The page schema of `collection`, for the field `field`. `listKey(args)` is the request key of
 * the list endpoint for the args without the page field: a page whose request started before that
 * list was last replaced or invalidated continues a list that is gone, and is not appended.
 *
 * @example
 * ```ts
 * const page = new CollectionPage(new Collection([Post]), 'cursor', args => getPosts.key(...args));
 * ```
 * @see docs/pagination.md
 */
export class CollectionPage<S = unknown> implements SchemaConstruct {
  readonly kind = 'CollectionPage' as const;
  declare readonly schema: S;
  readonly rootInput: RootInput = 'list';

  declare readonly collection: CollectionLike;
  declare readonly field: string;
  declare private readonly listKey: (args: readonly unknown[]) => string;

  constructor(collection: CollectionLike, field: string, listKey: (args: readonly unknown[]) => string) {
    this.collection = collection;
    this.field = field;
    this.listKey = listKey;
    if (collection.isValues) {
      throw setupError(
        'INVALID_SCHEMA',
        process.env.NODE_ENV !== 'production' && [
          `Pages append to a list, but Collection ${collection.key} is a map (a Values collection).`,
          'Paginate an array Collection: new Collection([Post]).',
        ],
      );
    }
    if (typeof field !== 'string' || field === '') {
      throw setupError(
        'INVALID_SCHEMA',
        process.env.NODE_ENV !== 'production' && [
          `A page needs the paginationField option, the name of the page or cursor param, but it is ${describe(field)}.`,
          "Name the param: new RestEndpoint({ path, schema, paginationField: 'cursor' }).",
        ],
      );
    }
    this.schema = collection.schema as S;
  }

  /** @internal */
  normalize(input: unknown, parent: unknown, key: string | undefined, delegate: NormalizeDelegate): unknown {
    if (!Array.isArray(input)) {
      throw inputError(
        'UNEXPECTED_INPUT',
        process.env.NODE_ENV !== 'production' && [
          `A page of Collection ${this.collection.key} must be a list of items, but received ${describe(input)}.`,
          'If the items sit inside the response (e.g. { results: [...] }), give the endpoint the schema { results: collection }.',
        ],
      );
    }
    const refs: unknown[] = [];
    for (const item of input) {
      const ref = this.collection.normalizeMember(item, parent, key, delegate);
      if (ref !== undefined && ref !== null) refs.push(ref);
    }
    const page = uniqueRefs(refs);
    const listArgs = withoutField(delegate.args, this.field);
    const rowKey = this.collection.pk(...listArgs);
    const row = delegate.getRow(this.collection.key, rowKey) as unknown[] | undefined;
    const listMeta = delegate.requestMeta(this.listKey(listArgs));
    if (!continuesList(row, listMeta, delegate.meta.fetchedAt)) return page;
    const fresh = refsNotIn(row!, page);
    // An append is a delta against the list as this write finds it, as a push is.
    if (fresh.length > 0) delegate.setRow(this.collection.key, rowKey, [...row!, ...fresh], deltaPolicy);
    return page;
  }

  /** @internal The page's items, read like the list's members. */
  denormalize(input: unknown, delegate: DenormalizeDelegate): unknown {
    if (!Array.isArray(input)) return input;
    return this.collection.readMembers(input, delegate);
  }

  /** @internal Not queryable: a page reads back only as its endpoint's stored result. */
  queryKey(): undefined {
    return undefined;
  }
}
