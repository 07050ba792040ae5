/** What a Collection holds: its member's table key part, and the shape a response must have. */

import { isObject, isRecord } from '../base/dict.js';
import { describe, inputError, setupError } from '../base/errors.js';
import { isEntityClass, type EntityClass } from './Entity.js';
import type { Polymorphic } from './polymorphic.js';

/**
 * The Polymorphic of a Union or a Values schema (`kind`), told by its `kind` rather than
 * `instanceof` (as isCollection does): a Collection then bundles neither class, nor Polymorphic,
 * unless the app uses them.
 */
export function polyOf(schema: unknown, kind: 'Union' | 'Values'): Polymorphic | undefined {
  const found = schema as { kind?: unknown; poly?: unknown } | null | undefined;
  return found?.kind === kind && isObject(found.poly) ? (found.poly as Polymorphic) : undefined;
}

/** The entity class an item of a polymorphic member (a Union's, a Values') would be stored as, if it can be told. */
export function polyClassOf(poly: Polymorphic, item: unknown): EntityClass | undefined {
  const schema = poly.isSingle ? poly.single : poly.memberSchema(poly.attributeOf(item, undefined, undefined));
  return isEntityClass(schema) ? schema : undefined;
}

/** The entity class an item would be stored as, if it can be told: `member` is the list's member schema. */
export function classOfItem(member: unknown, item: unknown): EntityClass | undefined {
  if (isEntityClass(member)) return member;
  const union = polyOf(member, 'Union');
  return union && polyClassOf(union, item);
}

/** The member part of a table key (docs/store.md): the entity key, or a Union's keys joined by `;`. */
export function memberKeyOf(schema: unknown): string {
  if (isEntityClass(schema)) return schema.key;
  const union = polyOf(schema, 'Union');
  if (union) return polymorphicKey(union.members);
  const tableKey = (schema as { collectionMemberKey?: unknown } | null)?.collectionMemberKey;
  if (typeof tableKey === 'string') return tableKey;
  throw setupError(
    'INVALID_SCHEMA',
    process.env.NODE_ENV !== 'production' && [
      `A Collection holds entities (or a Union of them); received ${describe(schema)} as its member.`,
      'Write new Collection([Post]), new Collection([new Union({ ... }, attribute)]) or new Collection(new Values(Post)).',
    ],
  );
}

export function polymorphicKey(members: Readonly<Record<string, unknown>> | undefined): string {
  const classes = Object.values(members ?? {});
  if (classes.length > 0 && classes.every(isEntityClass)) return classes.map(cls => cls.key).join(';');
  throw setupError(
    'INVALID_SCHEMA',
    process.env.NODE_ENV !== 'production' && [
      `A polymorphic Collection member must map names to Entity classes; received ${describe(members)}.`,
      "Write new Union({ users: User, groups: Group }, 'type').",
    ],
  );
}

/** Bad input: a list collection takes an array, a map collection an object. */
export function checkShape(
  collection: { readonly key: string },
  input: unknown,
  list: boolean,
  key: string | undefined,
): void {
  if (list ? Array.isArray(input) : isRecord(input)) return;
  throw inputError(
    'UNEXPECTED_INPUT',
    process.env.NODE_ENV !== 'production' && [
      `Collection ${collection.key}${key === undefined ? '' : ` at "${key}"`} expected ${list ? 'an array' : 'an object keyed by id'}, but received ${describe(input)}.`,
      list && isObject(input)
        ? 'If the list sits inside the response (e.g. { results: [...] }), describe that: { results: collection }.'
        : 'Check that the schema matches the response.',
    ],
    collection.key,
  );
}
