/** All: every cached entity of a class (or of several). See docs/All.md. */

import { describe, setupError } from '../base/errors.js';
import { DEVELOPMENT } from '../base/env.js';
import {
  INVALID,
  type DenormalizeDelegate,
  type NormalizeDelegate,
  type QueryDelegate,
  type RootInput,
  type SchemaConstruct,
} from './contract.js';
import { listItems, readList } from './members.js';
import { isEntityClass, readsMembers, type EntityClass } from './Entity.js';
import { Polymorphic, type SchemaAttribute } from './polymorphic.js';

/**
 * Every live entity of a class, in table order; with several classes, of each in member order.
 *
 * @example
 * ```ts
 * const userCount = new Query(new All(User), users => users.length);
 * ```
 * @see docs/All.md
 */
export class All<S = unknown> implements SchemaConstruct {
  readonly kind = 'All' as const;
  declare readonly schema: S;
  readonly rootInput: RootInput = 'object-or-list';
  /** @internal */
  declare readonly poly: Polymorphic;

  constructor(schema: S, attribute?: SchemaAttribute) {
    const classes = attribute === undefined ? [schema] : Object.values((schema ?? {}) as object);
    if (classes.length === 0 || !classes.every(isEntityClass)) {
      throw setupError(
        'INVALID_SCHEMA',
        process.env.NODE_ENV !== 'production' && [
          `new All() reads whole tables, so it takes Entity classes; received ${describe(schema)}.`,
          'Write new All(User), or new All({ cats: Cat, dogs: Dog }, attribute).',
        ],
      );
    }
    this.schema = schema;
    this.poly = new Polymorphic(schema, attribute, 'All');
  }

  /** @internal The member classes by member name (one unnamed member when not polymorphic). */
  private memberClasses(): Array<[string | undefined, EntityClass]> {
    if (this.poly.isSingle) return [[undefined, this.schema as EntityClass]];
    return Object.entries(this.poly.members as Record<string, EntityClass>);
  }

  /** @internal Like a list of members; the result is undefined, so every read re-reads the tables. */
  normalize(input: unknown, parent: unknown, key: string | undefined, delegate: NormalizeDelegate): unknown {
    const items = listItems(input, DEVELOPMENT && process.env.NODE_ENV !== 'production' && 'All');
    for (const [, cls] of this.memberClasses()) delegate.ensureTable(cls.key);
    for (const item of items) {
      if (item !== null && item !== undefined) this.poly.normalizeValue(item, parent, key, delegate);
    }
    return undefined;
  }

  /** @internal */
  denormalize(input: unknown, delegate: DenormalizeDelegate): unknown {
    if (!Array.isArray(input)) return input;
    return readList(
      input,
      this.poly.isSingle ? readsMembers(this.poly.single, delegate) : ref => this.poly.denormalizeValue(ref, delegate),
    );
  }

  /** @internal The live row keys of the table(s); INVALID when no member table exists (docs/All.md). */
  queryKey(args: readonly unknown[], delegate: QueryDelegate): unknown {
    const refs: unknown[] = [];
    let found = false;
    for (const [name, cls] of this.memberClasses()) {
      const table = delegate.table(cls.key);
      if (!table) continue;
      found = true;
      for (const rowKey of Object.keys(table)) {
        const row = table[rowKey];
        if (row === null || row === undefined) continue;
        if (name === undefined) {
          refs.push(rowKey);
        } else {
          const tag = this.poly.attributeOf(row, undefined, undefined);
          refs.push({ id: rowKey, schema: this.poly.memberSchema(tag) === cls ? tag : name });
        }
      }
    }
    return found ? refs : INVALID;
  }
}
