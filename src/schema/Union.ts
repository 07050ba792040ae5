/** Union: one entity out of several types, picked by an attribute. See docs/Union.md. */

import { isRecord } from '../base/dict.js';
import { describe, inputError, setupError } from '../base/errors.js';
import type { DenormalizeDelegate, NormalizeDelegate, QueryDelegate, RootInput, SchemaConstruct } from './contract.js';
import type { EntityClass } from './Entity.js';
import { Polymorphic, type SchemaAttribute } from './polymorphic.js';

/**
 * An item that is one of several entity types.
 *
 * @example
 * ```ts
 * const Member = new Union({ users: User, groups: Group }, 'type');
 * ```
 * @see docs/Union.md
 */
export class Union<M extends Record<string, EntityClass> = Record<string, EntityClass>> implements SchemaConstruct {
  readonly kind = 'Union' as const;
  declare readonly schema: M;
  readonly rootInput: RootInput = 'object';
  /** @internal */
  declare readonly poly: Polymorphic;

  constructor(members: M, attribute: SchemaAttribute) {
    if (attribute === undefined) {
      throw setupError(
        'INVALID_SCHEMA',
        process.env.NODE_ENV !== 'production' && [
          'new Union() needs an attribute that says which member each item is.',
          "Pass a field name or a function as the second argument: new Union({ users: User, groups: Group }, 'type').",
        ],
      );
    }
    this.poly = new Polymorphic(members, attribute, 'Union');
    this.schema = members;
  }

  /** @internal */
  normalize(input: unknown, parent: unknown, key: string | undefined, delegate: NormalizeDelegate): unknown {
    if (!isRecord(input)) {
      throw inputError(
        'UNEXPECTED_INPUT',
        process.env.NODE_ENV !== 'production' && [
          `A Union expected an object with its type attribute, but received ${describe(input)}.`,
          'Check that the schema matches the response.',
        ],
      );
    }
    return this.poly.normalizeValue(input, parent, key, delegate);
  }

  /** @internal */
  denormalize(input: unknown, delegate: DenormalizeDelegate): unknown {
    return this.poly.denormalizeValue(input, delegate);
  }

  /** @internal The member named by the attribute of args[0], else the first member with a hit. */
  queryKey(args: readonly unknown[], delegate: QueryDelegate): unknown {
    const first = args[0];
    if (first === undefined || first === null) return undefined;
    const named = this.poly.attributeOf(first, undefined, undefined);
    const names = this.poly.memberSchema(named) !== undefined ? [named as string] : Object.keys(this.schema);
    for (const name of names) {
      const id = delegate.queryKey(this.schema[name], args);
      if (id !== undefined) return { id, schema: name };
    }
    return undefined;
  }
}
