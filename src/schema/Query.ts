/** Query: a programmatic read of the cache (sorts, counts, group-bys, joins). See docs/Query.md. */

import { describe, setupError } from '../base/errors.js';
import {
  INVALID,
  rootInputOf,
  type DenormalizeDelegate,
  type NormalizeDelegate,
  type QueryDelegate,
  type RootInput,
  type SchemaConstruct,
} from './contract.js';
import type { Queried } from './types.js';

/**
 * Reads `queryable` from the cache with the read's args, then runs `process` on it. The output is
 * memoized: the same input object (or a container holding the same members) and args equal by
 * value return the same output, and `process` does not run again.
 *
 * @example
 * ```ts
 * const userCount = new Query(new All(User), users => users.length);
 * const sortedPosts = new Query(posts, (entries, { orderBy } = {}) =>
 *   orderBy ? [...entries].sort((a, b) => String(a[orderBy]).localeCompare(String(b[orderBy]))) : entries,
 * );
 * cache.selectQuery(state, userCount); // undefined until a User table exists
 * ```
 * @see docs/Query.md
 */
export class Query<S = unknown, R = unknown> implements SchemaConstruct {
  readonly kind = 'Query' as const;
  declare readonly schema: S;
  declare readonly process: (entries: Queried<S>, ...args: any[]) => R;
  declare readonly rootInput: RootInput;
  /** Type-only: the result type of `process`. */
  declare readonly __result?: R;

  constructor(queryable: S, compute: (entries: Queried<S>, ...args: any[]) => R) {
    // (Not named `process`: the messages below read the global `process.env`.)
    if (typeof compute !== 'function') {
      throw setupError(
        'INVALID_SCHEMA',
        process.env.NODE_ENV !== 'production' && [
          `new Query() needs a process function as its second argument; received ${describe(compute)}.`,
          'Write new Query(schema, (entries, ...args) => result); to read a schema as is, use selectQuery(state, schema) directly.',
        ],
      );
    }
    if (queryable === undefined || queryable === null) {
      throw setupError(
        'INVALID_SCHEMA',
        process.env.NODE_ENV !== 'production' && [
          `new Query() needs a schema to read; received ${describe(queryable)}.`,
          'Pass an Entity, All, Collection, Union, Scalar, Query or an object of them.',
        ],
      );
    }
    this.schema = queryable;
    this.process = compute;
    this.rootInput = rootInputOf(queryable);
  }

  /** @internal As an endpoint's schema, a Query stores what its inner schema stores. */
  normalize(input: unknown, parent: unknown, key: string | undefined, delegate: NormalizeDelegate): unknown {
    return delegate.visit(this.schema, input, parent, key);
  }

  /**
   * @internal No inner value → `undefined`, and `process` is not called. An invalid inner
   * value (deleted) stays invalid, so reads show `undefined` and an endpoint reports `'invalid'`
   * (and refetches) as it would with the inner schema itself (docs/store.md).
   */
  denormalize(input: unknown, delegate: DenormalizeDelegate): unknown {
    const value = delegate.unvisit(this.schema, input);
    if (value === undefined || value === INVALID) return value;
    return delegate.computed(this, value, () => this.process(value as Queried<S>, ...delegate.args));
  }

  /** @internal */
  queryKey(args: readonly unknown[], delegate: QueryDelegate): unknown {
    return delegate.queryKey(this.schema, args);
  }
}
