/**
 * What one tab sends the others (docs/crossTab.md): the members of its slice a confirmed write
 * changed, never a pending guess (a row or response whose meta is `optimistic`), a stored error or
 * an invalidation. A part has the shape `hydrate` merges: each response and each row with its meta.
 */

import { changedKeysSince, tableId } from '../../../base/tableDiffs.js';
import type { CacheState } from '../../../base/state.js';

/** Past this many changed keys in one table, the table is compared row by row. */
const KEYS_LIMIT = 256;

type Part = Record<string, Record<string, any>>;

/**
 * The confirmed members of `slice` that are not the same objects in `before` (every confirmed
 * member when `before` is undefined); `undefined` when there are none.
 */
export function confirmedPart(slice: CacheState, before: CacheState | undefined): Partial<CacheState> | undefined {
  const part: Part = {};
  let any = false;
  const add = (map: string, key: string, value: unknown, table?: string): void => {
    const members = (part[map] ??= {});
    if (table === undefined) members[key] = value;
    else (members[table] ??= {})[key] = value;
    any = true;
  };
  // Responses: a result goes with its meta (hydrate drops a result sent without one).
  for (const key of keysOf(slice.meta, before?.meta)) {
    const meta = slice.meta[key];
    // A failure or an invalidation is the tab's own (its network, its choice): the data stays.
    if (meta === undefined || meta.optimistic || meta.error || meta.invalidated) continue;
    const result = slice.endpoints[key];
    if (meta === before?.meta[key] && result === before.endpoints[key]) continue;
    add('meta', key, meta);
    if (result !== undefined) add('endpoints', key, result);
  }
  // Rows: each with its meta, so the receiver can tell which is newer.
  for (const table of Object.keys(slice.entities)) {
    const rows = slice.entities[table]!;
    const metas = slice.entitiesMeta[table];
    const oldRows = before?.entities[table];
    const oldMetas = before?.entitiesMeta[table];
    if (rows === oldRows && metas === oldMetas) continue;
    const keys = new Set([...keysOf(rows, oldRows), ...(metas ? keysOf(metas, oldMetas) : [])]);
    for (const key of keys) {
      const row = rows[key];
      const meta = metas?.[key];
      if (row === undefined || meta?.optimistic) continue;
      if (row === oldRows?.[key] && meta === oldMetas?.[key]) continue;
      add('entities', key, row, table);
      if (meta !== undefined) add('entitiesMeta', key, meta, table);
    }
  }
  return any ? (part as Partial<CacheState>) : undefined;
}

/** The keys of `now` that may differ from `old`: those the reducer recorded, else all of them. */
function keysOf(now: object, old: object | undefined): readonly string[] {
  if (old === now) return [];
  return (old && changedKeysSince(tableId(old), now, KEYS_LIMIT)) || Object.keys(now);
}
