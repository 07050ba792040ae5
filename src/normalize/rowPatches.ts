/**
 * Turns the rows one write queued into patches against the stored slice: the merge and ordering
 * rules of BEHAVIOR §3.4, and no patch for a row whose merged content is unchanged (D8).
 */

import { isDevelopment } from '../shared/env.js';
import { jsonEqual } from '../shared/json.js';
import type { WriteMeta } from '../shared/patch.js';
import type { CacheState, Row } from '../shared/state.js';
import type { RowPolicy } from '../schema/contract.js';
import { toJsonValue } from './checkRow.js';
import type { PatchList } from './PatchList.js';

export interface PendingRow {
  row: Row;
  policy: RowPolicy;
}

export function rowPatches(
  list: PatchList,
  state: CacheState,
  pending: ReadonlyMap<string, ReadonlyMap<string, PendingRow>>,
  meta: WriteMeta,
): void {
  const freeze = isDevelopment();
  for (const [table, rows] of pending) {
    const stored = state.entities[table];
    const storedMeta = state.entitiesMeta[table];
    // Tables are added empty, then filled row by row, so a patch never replaces a whole table.
    if (stored === undefined) list.set(['entities', table], {}, undefined);
    if (storedMeta === undefined) list.set(['entitiesMeta', table], {}, undefined);
    for (const [key, pending] of rows) {
      const row = toJsonValue(pending.row, `${table} "${key}"`);
      const policy = pending.policy;
      const existing = stored?.[key];
      const existingMeta = storedMeta?.[key];
      const reorder =
        existing !== undefined && existingMeta !== undefined && policy.shouldReorder(existingMeta, meta, existing, row);
      let next = merged(existing, row, reorder, policy);
      if (existing !== undefined && next !== existing && jsonEqual(next, existing)) next = existing;
      if (next !== existing) {
        if (freeze && next !== null) Object.freeze(next);
        list.set(['entities', table, key], next, existing);
      }
      if (!reorder && (existingMeta === undefined || !sameMeta(existingMeta, meta))) {
        list.set(['entitiesMeta', table, key], meta, existingMeta);
      }
    }
  }
}

/** BEHAVIOR §3.4: which row a write leaves, given the stored one and the ordering decision. */
function merged(existing: Row | undefined, incoming: Row, reorder: boolean, policy: RowPolicy): Row {
  if (existing === undefined) return incoming;
  if (existing === null || incoming === null || Array.isArray(existing) || Array.isArray(incoming)) {
    // A deletion and a row replace each other entirely (no field survives a deletion), as do lists.
    return reorder ? existing : incoming;
  }
  return reorder ? policy.merge(incoming, existing) : policy.merge(existing, incoming);
}

function sameMeta(a: WriteMeta, b: WriteMeta): boolean {
  return a === b || (a.fetchedAt === b.fetchedAt && a.date === b.date && a.expiresAt === b.expiresAt);
}
