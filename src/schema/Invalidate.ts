/** Invalidate: a response that deletes an entity. See docs/Invalidate.md. */

import { isRecord } from '../base/dict.js';
import { describe, inputError, setupError } from '../base/errors.js';
import { warnOnce } from '../base/env.js';
import type { DenormalizeDelegate, NormalizeDelegate, RootInput, SchemaConstruct } from './contract.js';
import { infoOf, isEntityClass, type EntityClass } from './Entity.js';
import { checkedPk } from './entityNormalize.js';
import { writeIndexes } from './entityIndexes.js';
import { Union } from './Union.js';

/**
 * Deletes the entity the response names (an item or a pk): its row becomes a tombstone.
 *
 * @example
 * ```ts
 * await store.dispatch(cache.setResponse(deletePost, { id: '5' }, { id: '5' }));
 * // with deletePost.schema = new Invalidate(Post)
 * ```
 * @see docs/Invalidate.md
 */
export class Invalidate<E extends EntityClass | Union = EntityClass> implements SchemaConstruct {
  readonly kind = 'Invalidate' as const;
  declare readonly schema: E;
  readonly rootInput: RootInput = 'object-or-pk';

  constructor(schema: E) {
    if (!isEntityClass(schema) && !(schema instanceof Union)) {
      throw setupError(
        'INVALID_SCHEMA',
        process.env.NODE_ENV !== 'production' && [
          `new Invalidate() takes an Entity class or a Union; received ${describe(schema)}.`,
          'Write new Invalidate(Post).',
        ],
      );
    }
    this.schema = schema;
  }

  /** @internal `process` and `pk` run, then a tombstone is queued; the result is the ref. */
  normalize(input: unknown, parent: unknown, key: string | undefined, delegate: NormalizeDelegate): unknown {
    if (this.schema instanceof Union) {
      const union = this.schema;
      const name = union.poly.attributeOf(input, parent, key);
      const member = union.poly.memberSchema(name) as EntityClass | undefined;
      if (!member) {
        // As a plain Union does: an unknown type is kept raw, and nothing is deleted.
        if (process.env.NODE_ENV !== 'production')
          warnOnce(
            `Invalidate of a Union met the unknown type ${describe(name)} (known: ${Object.keys(union.schema).join(', ')}); ` +
              'the item is kept as raw data and nothing is deleted.',
          );
        return input;
      }
      return { id: this.tombstone(member, input, parent, key, delegate), schema: name as string };
    }
    return this.tombstone(this.schema as EntityClass, input, parent, key, delegate);
  }

  /**
   * @internal The entity class an item deletes: the schema itself, or the Union member the item's
   * attribute names (`undefined` for a type the Union does not know).
   */
  entityOf(input: unknown, parent: unknown, key: string | undefined): EntityClass | undefined {
    const schema = this.schema;
    if (!(schema instanceof Union)) return schema as EntityClass;
    return schema.poly.memberSchema(schema.poly.attributeOf(input, parent, key)) as EntityClass | undefined;
  }

  private tombstone(
    cls: EntityClass,
    input: unknown,
    parent: unknown,
    key: string | undefined,
    delegate: NormalizeDelegate,
  ): string {
    const info = infoOf(cls);
    let rowKey: string;
    if (typeof input === 'string' || typeof input === 'number') {
      rowKey = checkedPk(cls, info, input, { id: input });
    } else if (isRecord(input)) {
      const processed = cls.process(input, parent, key, delegate.args) ?? input;
      rowKey = checkedPk(cls, info, cls.pk(processed, parent, key, delegate.args), processed);
    } else {
      throw inputError(
        'UNEXPECTED_INPUT',
        process.env.NODE_ENV !== 'production' && [
          `Invalidate(${cls.key}) expected the deleted item or its pk, but received ${describe(input)}.`,
          'Send the pk (a string or number) or an object with it.',
        ],
      );
    }
    writeIndexes(cls, rowKey, null, delegate);
    delegate.setRow(cls.key, rowKey, null, cls);
    return rowKey;
  }

  /** @internal Reads back like the schema it deletes: a deleted entity is invalid, a missing one `undefined`. */
  denormalize(input: unknown, delegate: DenormalizeDelegate): unknown {
    return delegate.unvisit(this.schema, input);
  }

  /** @internal Not queryable. */
  queryKey(): undefined {
    return undefined;
  }
}
