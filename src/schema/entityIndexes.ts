/**
 * Entity `indexes`: lookups by a field other than the pk (`selectQuery(User, { username })`).
 *
 * Each indexed field has its own table in `entities`, `<key>@<field>`, mapping the field's value
 * to a one-element list holding the pk: `entities['User@username'].ann = ['u1']`. It is plain
 * data written by the same row mechanism as entity rows, so it is JSON, prototype-safe, ordered
 * by `fetchedAt` and undone by the same inverse patches. A value that leaves a row (the field
 * changed, or the entity was deleted) leaves a tombstone (`null`) in the index.
 *
 * Reads check the row they find still holds the value: a write merged under an older one
 * (docs/Entity.md) may leave an entry the row no longer matches, and such an entry is a miss.
 */

import { hasOwn, isRecord } from '../base/dict.js';
import { warnOnce } from '../base/env.js';
import type { NormalizeDelegate, QueryDelegate, Row, RowPolicy } from './contract.js';

/** The classes' side of an index: its key and the fields it indexes. */
export interface Indexed {
  readonly key: string;
  readonly indexes?: readonly string[] | undefined;
}

/** The table that indexes `field` of the entity table `key`. */
export function indexTable(key: string, field: string): string {
  return `${key}@${field}`;
}

/** An entry is replaced whole; an older write does not replace a newer entry; it is never unsure (it follows its entity's row). */
const indexPolicy: RowPolicy = {
  merge: (existing, incoming) => incoming,
  shouldReorder: (existingMeta, incomingMeta) => incomingMeta.fetchedAt < existingMeta.fetchedAt,
  versioned: true,
};

/** The index key of a field value: strings and finite numbers are indexed, nothing else. */
function valueKey(value: unknown): string | undefined {
  if (typeof value === 'string' || Number.isFinite(value)) return String(value);
  return undefined;
}

function fieldOf(row: Row | undefined, field: string): unknown {
  return isRecord(row) && hasOwn(row, field) ? (row as Record<string, unknown>)[field] : undefined;
}

/**
 * Queues the index entries of one entity write: `row` is the incoming row, or `null` for a
 * deletion. Call it before the row itself is queued, so `getRow` still gives the row as it was.
 */
export function writeIndexes(cls: Indexed, rowKey: string, row: Row, delegate: NormalizeDelegate): void {
  const fields = cls.indexes;
  if (!fields || fields.length === 0) return;
  const before = delegate.getRow(cls.key, rowKey);
  for (const field of fields) {
    const table = indexTable(cls.key, field);
    const incoming = row === null ? undefined : fieldOf(row, field);
    // A row written without the field keeps its stored value (the merge), and so its entry.
    if (row !== null && incoming === undefined) continue;
    const next = valueKey(incoming);
    const previous = valueKey(fieldOf(before, field));
    if (previous !== undefined && previous !== next && pointsAt(delegate.getRow(table, previous), rowKey)) {
      delegate.setRow(table, previous, null, indexPolicy);
    }
    if (next !== undefined) delegate.setRow(table, next, [rowKey], indexPolicy);
  }
}

/**
 * Development only: an indexed field that the class does not declare (no field initialiser) and
 * that the written row lacks is most likely misspelt, or nested (indexes are top-level fields), so
 * its index would never find anything. Once per class and field.
 */
export function warnUnknownIndexes(cls: Indexed, declared: ReadonlySet<string>, row: object): void {
  for (const field of cls.indexes ?? []) {
    if (declared.has(field) || (row as Record<string, unknown>)[field] !== undefined) continue;
    warnOnce(
      `${cls.key}.indexes names "${field}", a field ${cls.key} does not have (no initialiser, and not in the row written), so lookups by it find nothing. ` +
        `Index a top-level field of ${cls.key}, or declare it with an initialiser (${field} = '').`,
    );
  }
}

function pointsAt(entry: Row | undefined, rowKey: string): boolean {
  return Array.isArray(entry) && entry[0] === rowKey;
}

/**
 * The row key `params` names through an index: the first indexed field it holds decides, and
 * `undefined` means no live row holds that value. `null` when it holds no indexed field (the
 * caller then computes the pk).
 */
export function lookupIndex(cls: Indexed, params: object, delegate: QueryDelegate): string | undefined | null {
  const fields = cls.indexes;
  if (!fields) return null;
  for (const field of fields) {
    if (!hasOwn(params, field)) continue;
    const value = valueKey((params as Record<string, unknown>)[field]);
    if (value === undefined) return undefined;
    const entry = delegate.row(indexTable(cls.key, field), value);
    if (!Array.isArray(entry) || typeof entry[0] !== 'string') return undefined;
    const rowKey = entry[0];
    return valueKey(fieldOf(delegate.row(cls.key, rowKey), field)) === value ? rowKey : undefined;
  }
  return null;
}
