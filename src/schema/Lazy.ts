/** Lazy: a field schema resolved on demand, read back as its stored refs. See docs/Lazy.md. */

import { describe, setupError } from '../base/errors.js';
import {
  isConstruct,
  rootInputOf,
  type DenormalizeDelegate,
  type NormalizeDelegate,
  type QueryDelegate,
  type RootInput,
  type SchemaConstruct,
} from './contract.js';
import { isEntityClass } from './Entity.js';

/**
 * A field whose schema is given by a function (so classes can refer to each other in cycles) and
 * which a read leaves as stored refs; `lazy.query` resolves those refs when a component wants them.
 *
 * @example
 * ```ts
 * class Department extends Entity {
 *   id = ''; buildings: string[] = [];
 *   static schema = { buildings: new Lazy(() => [Building]) };
 * }
 * const buildings = cache.selectQuery(state, Department.schema.buildings.query, department.buildings);
 * ```
 * @see docs/Lazy.md
 */
export class Lazy<S = unknown> implements SchemaConstruct {
  readonly kind = 'Lazy' as const;
  private readonly getSchema: () => S;
  declare private resolved: { schema: S } | undefined;
  declare private queryable: LazyQuery<S> | undefined;

  constructor(getSchema: () => S) {
    if (typeof getSchema !== 'function' || isEntityClass(getSchema)) {
      throw setupError(
        'INVALID_SCHEMA',
        process.env.NODE_ENV !== 'production' && [
          `new Lazy() takes a function that returns the schema; received ${describe(getSchema)}.`,
          'Write new Lazy(() => [Building]).',
        ],
      );
    }
    this.getSchema = getSchema;
  }

  /** The inner schema, resolved on first use. */
  get schema(): S {
    if (!this.resolved) this.resolved = { schema: this.getSchema() };
    return this.resolved.schema;
  }

  get rootInput(): RootInput {
    return rootInputOf(this.schema);
  }

  /** @internal The refs a stored value holds, read unresolved (garbage collection follows them). */
  get unresolved(): S {
    return this.schema;
  }

  /** A stable Queryable that reads the inner schema (docs/Lazy.md). */
  get query(): LazyQuery<S> {
    if (!this.queryable) this.queryable = new LazyQuery(this);
    return this.queryable;
  }

  /** @internal Normalizes through the inner schema. */
  normalize(input: unknown, parent: unknown, key: string | undefined, delegate: NormalizeDelegate): unknown {
    return delegate.visit(this.schema, input, parent, key);
  }

  /** @internal Reads back the stored refs, unresolved. */
  denormalize(input: unknown): unknown {
    return input;
  }

  /** @internal */
  queryKey(): undefined {
    return undefined;
  }
}

/** The Queryable of a Lazy field: `args[0]` is the stored value unless the inner schema can build a key. */
export class LazyQuery<S = unknown> implements SchemaConstruct {
  readonly kind = 'LazyQuery' as const;

  constructor(readonly lazy: Lazy<S>) {}

  get schema(): S {
    return this.lazy.schema;
  }

  get rootInput(): RootInput {
    return this.lazy.rootInput;
  }

  /** @internal */
  normalize(input: unknown, parent: unknown, key: string | undefined, delegate: NormalizeDelegate): unknown {
    return delegate.visit(this.schema, input, parent, key);
  }

  /** @internal */
  denormalize(input: unknown, delegate: DenormalizeDelegate): unknown {
    return delegate.unvisit(this.schema, input);
  }

  /** @internal */
  queryKey(args: readonly unknown[], delegate: QueryDelegate): unknown {
    const inner = this.schema;
    if (isConstruct(inner) && !isStoredValueOnly(inner)) return delegate.queryKey(inner, args);
    return args[0];
  }
}

/** Constructs that cannot build a key from the store; their Lazy query reads `args[0]` instead. */
function isStoredValueOnly(schema: SchemaConstruct): boolean {
  const kind = (schema as { kind?: string }).kind;
  return kind === 'Values' || kind === 'Invalidate' || kind === 'Lazy';
}
