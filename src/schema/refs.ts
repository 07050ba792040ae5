/**
 * Refs as collections hold them: an entity pk string, or `{ id, schema }` for a polymorphic
 * member. A list never holds the same ref twice (docs/Collection.md, "Duplicates").
 */

import { hasOwn, isObject } from '../base/dict.js';
import type { EndpointMeta } from '../base/state.js';
import type { RowPolicy } from './contract.js';

/** Refs compare by pk, and polymorphic refs by `id` and `schema`. */
export function sameRef(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const left = a as { id?: unknown; schema?: unknown };
  const right = b as { id?: unknown; schema?: unknown };
  return hasOwn(left, 'schema') && left.id === right.id && left.schema === right.schema;
}

/**
 * The identity of a ref, for set lookups; `undefined` for a raw object (an unknown Union member
 * kept as it came), which is data rather than a ref and is never taken for a repeat.
 */
function refId(ref: unknown): unknown {
  if (!isObject(ref)) return ref;
  if (!hasOwn(ref, 'schema')) return undefined;
  const { id, schema } = ref as { id?: unknown; schema?: unknown };
  return `${String(schema)}\u0000${String(id)}`;
}

/** `refs` without repeats, the first of each kept; the same array when it has none. */
export function uniqueRefs<T>(refs: T[]): T[] {
  const seen = new Set<unknown>();
  let unique: T[] | undefined;
  for (let i = 0; i < refs.length; i++) {
    const id = refId(refs[i]);
    if (id === undefined || !seen.has(id)) {
      seen.add(id);
      unique?.push(refs[i]!);
    } else unique ??= refs.slice(0, i);
  }
  return unique ?? refs;
}

/** The refs of `added` that `list` does not hold yet (and no repeats among them). */
export function refsNotIn(list: readonly unknown[], added: readonly unknown[]): unknown[] {
  const held = new Set(list.map(refId));
  const fresh: unknown[] = [];
  for (const ref of added) {
    const id = refId(ref);
    if (id !== undefined && held.has(id)) continue;
    held.add(id);
    fresh.push(ref);
  }
  return fresh;
}

/**
 * Whether a page whose request started at `start` is appended to the list stored as `row`, whose
 * request meta is `list`. Pages never create a list: without the first page there is nothing to
 * continue. And a list replaced (fetched again) or invalidated after the page was asked for is
 * not the list the page continued: the new one must be paged again.
 */
export function continuesList(row: unknown, list: EndpointMeta | undefined, start: number): boolean {
  return Array.isArray(row) && !(list !== undefined && list.fetchedAt > start);
}

/**
 * Ops are deltas against the list as this write finds it: they apply whatever their age (a late
 * push still appends), and an older one leaves the list's newer meta in place (docs/Collection.md).
 */
export const deltaPolicy: RowPolicy = {
  merge: (existing, incoming) => incoming,
  shouldReorder: () => false,
  delta: true,
};
