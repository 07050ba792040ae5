/** Plain array schemas, `[S]` (docs/plain-schemas.md): exactly one member schema. */

import { setupError } from '../base/errors.js';
import { DEVELOPMENT } from '../base/env.js';
import type { DenormalizeDelegate, NormalizeDelegate } from './contract.js';
import { listItems, readList } from './members.js';
import { readsMembers, writesMembers } from './Entity.js';

/** The member schema of `[S]`; any other length is a schema error. */
export function memberOf(schema: readonly unknown[]): unknown {
  if (schema.length !== 1) {
    throw setupError(
      'INVALID_SCHEMA',
      process.env.NODE_ENV !== 'production' && [
        `An array schema must hold exactly one member schema; received ${schema.length}.`,
        schema.length > 1
          ? 'For a list of several entity types, use [new Union({ ... }, attribute)].'
          : 'Write [Entity], naming what the list holds.',
      ],
    );
  }
  return schema[0];
}

/** Members keep their order; each is visited with the array's own parent and key (docs/plain-schemas.md). */
export function normalizeArray(
  schema: readonly unknown[],
  input: unknown,
  parent: unknown,
  key: string | undefined,
  delegate: NormalizeDelegate,
): unknown[] {
  const member = memberOf(schema);
  const items = listItems(
    input,
    // (The cached flag first: `process.env` is slow to read in Node, and this runs per list.)
    DEVELOPMENT &&
      process.env.NODE_ENV !== 'production' &&
      (key === undefined ? 'An array schema' : `The list at "${key}"`),
  );
  // An Entity member is written through its class's writer, without the dispatch per item.
  const writer = writesMembers(member);
  const refs: unknown[] = [];
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    const ref =
      writer !== undefined ? delegate.visitWith(writer, item, parent, key) : delegate.visit(member, item, parent, key);
    if (ref !== undefined) refs.push(ref);
  }
  return refs;
}

/** Members that come back undefined or invalid are dropped; null members are kept (docs/plain-schemas.md). */
export function denormalizeArray(schema: readonly unknown[], input: unknown, delegate: DenormalizeDelegate): unknown {
  if (!Array.isArray(input)) return input;
  return readList(input, readsMembers(memberOf(schema), delegate));
}
