/** Values: a map of items keyed by entity pk (or any key). See docs/Values.md. */

import { describe, inputError } from '../base/errors.js';
import { isObject, isRecord, setOwn } from '../base/dict.js';
import type { DenormalizeDelegate, NormalizeDelegate, RootInput, SchemaConstruct } from './contract.js';
import { readMap } from './members.js';
import { Polymorphic, type SchemaAttribute } from './polymorphic.js';

/**
 * A map of items: `{ [key]: item }`.
 *
 * @example
 * ```ts
 * const usersById = new Values(User);
 * ```
 * @see docs/Values.md
 */
export class Values<S = unknown> implements SchemaConstruct {
  readonly kind = 'Values' as const;
  declare readonly schema: S;
  readonly rootInput: RootInput = 'object';
  /** @internal */
  declare readonly poly: Polymorphic;

  constructor(schema: S, attribute?: SchemaAttribute) {
    this.schema = schema;
    this.poly = new Polymorphic(schema, attribute, 'Values');
  }

  /** @internal Each non-null member is visited with the whole map as parent and its key as key. */
  normalize(input: unknown, parent: unknown, key: string | undefined, delegate: NormalizeDelegate): unknown {
    if (!isRecord(input)) {
      throw inputError(
        'UNEXPECTED_INPUT',
        process.env.NODE_ENV !== 'production' && [
          `Values expected an object keyed by id, but received ${describe(input)}.`,
          Array.isArray(input)
            ? 'For a list, use [Schema] instead of new Values(Schema).'
            : 'Check that the schema matches the response.',
        ],
      );
    }
    const map = input as Record<string, unknown>;
    const refs: Record<string, unknown> = {};
    for (const mapKey of Object.keys(map)) {
      const value = map[mapKey];
      if (value === null || value === undefined) continue;
      const ref = this.poly.normalizeValue(value, map, mapKey, delegate);
      if (ref !== undefined) setOwn(refs, mapKey, ref);
    }
    return refs;
  }

  /** @internal Members that read falsy or invalid drop out, key and all (docs/plain-schemas.md). */
  denormalize(input: unknown, delegate: DenormalizeDelegate): unknown {
    if (!isObject(input)) return input;
    return readMap(input as Record<string, unknown>, ref => this.poly.denormalizeValue(ref, delegate));
  }

  /** @internal Not queryable: a Values read needs its endpoint's stored result. */
  queryKey(): undefined {
    return undefined;
  }
}
