/**
 * Turns the rows one write queued into patches against the stored slice: the merge and ordering
 * rules of docs/Entity.md ("Rules worth knowing"), and no patch for a row whose merged content is
 * unchanged (a no-op write, docs/store.md).
 */

import { copyDict, createDict, type Dict } from '../base/dict.js';
import { jsonEqual } from '../base/json.js';
import type { WriteMeta } from '../base/patch.js';
import type { CacheState, Row } from '../base/state.js';
import type { RowPolicy } from '../schema/contract.js';
import { RowChecker } from '../base/checkRow.js';
import { listPatches, type PatchList } from './PatchList.js';
import type { PendingRow } from './PendingRows.js';

export function rowPatches(
  list: PatchList,
  state: CacheState,
  pending: ReadonlyMap<string, ReadonlyMap<string, PendingRow>>,
  meta: WriteMeta,
  changedRowsOnly: boolean,
  overwrite: boolean,
): void {
  // The store owns what it holds, in every build: rows and meta are frozen as they are written.
  Object.freeze(meta);
  const checker = new RowChecker();
  let unsure: WriteMeta | undefined;
  for (const [table, rows] of pending) {
    const stored = state.entities[table];
    const storedMeta = state.entitiesMeta[table];
    // A new table is added whole, in one patch; an existing one gets a patch per changed row.
    // (Few, large patches keep a first load cheap for Redux's dev checks, which walk every object
    // of every action; a first load of thousands of rows is then one patch per table.)
    const added: Dict<Row> | undefined = stored === undefined ? createDict() : undefined;
    const metaKeys: string[] = [];
    /** Rows two overlapping mutation answers disagree on: stored with `unsure`, stale at once. */
    const unsureKeys: string[] = [];
    // (Values only, each holding its key: an entries loop builds a pair per row.)
    for (const pending of rows.values()) {
      const key = pending.key;
      const row = pending.row;
      if (row === undefined) continue;
      const policy = pending.policy!;
      const existing = stored?.[key];
      const existingMeta = storedMeta?.[key];
      const overlap = !overwrite && overlapping(existingMeta, meta, policy);
      const reorder =
        // A row answered after a deletion it overlaps was changed before it: nothing is served after a deletion.
        (overlap && existing === null) ||
        (!overwrite &&
          existing !== undefined &&
          existingMeta !== undefined &&
          policy.shouldReorder(existingMeta, meta, existing, row));
      let next = merged(existing, row, reorder, policy);
      // Compared before it is checked and copied: a row equal to the stored one stores nothing of
      // the input, so an identical refetch copies nothing. What is stored is checked and copied
      // once, merged (a value JSON cannot hold always differs from the stored, valid row).
      if (existing !== undefined && (next === existing || jsonEqual(next, existing))) next = existing;
      else if (next === row && pending.checked) next = Object.freeze(next);
      else next = checker.row(next, table, key);
      if (next !== existing) {
        if (added) added[key] = next;
        else if (Array.isArray(existing) && Array.isArray(next))
          listPatches(list, ['entities', table, key], existing, next);
        else list.set(['entities', table, key], next, existing);
      }
      // A delta applies whatever its age, but an older one leaves the newer meta in place.
      const olderDelta =
        !overwrite && policy.delta === true && existingMeta !== undefined && meta.fetchedAt < existingMeta.fetchedAt;
      const touched = !changedRowsOnly || next !== existing;
      // Which of two overlapping answers the server applied last is unknown: the later arrival is
      // shown, and read again before it counts as valid (a deletion is never in doubt).
      // An edit computed from a row in doubt (an updater's) keeps the doubt: only a read settles it.
      if (
        (overlap && !reorder && row !== null && (next !== existing || existingMeta!.ambiguous)) ||
        (changedRowsOnly && next !== existing && existingMeta?.ambiguous)
      )
        unsureKeys.push(key);
      else if (touched && !reorder && !olderDelta && (existingMeta === undefined || !sameMeta(existingMeta, meta)))
        metaKeys.push(key);
    }
    if (added) list.set(['entities', table], Object.freeze(added), undefined);
    metaPatches(list, table, storedMeta, metaKeys, meta);
    if (unsureKeys.length > 0) {
      unsure ??= Object.freeze({ ...meta, expiresAt: 1, ambiguous: true as const });
      for (const key of unsureKeys) list.set(['entitiesMeta', table, key], unsure, storedMeta![key]);
    }
  }
}

/**
 * The meta of the rows a write touched. A new table's meta is one patch; an existing table's is a
 * patch per row, so a one-row edit stays a small action whatever the table's size, unless the
 * write reaches most of the table, when one copy of the table is smaller than the row patches.
 */
function metaPatches(
  list: PatchList,
  table: string,
  storedMeta: Dict<WriteMeta> | undefined,
  keys: readonly string[],
  meta: WriteMeta,
): void {
  if (storedMeta === undefined) {
    const metaTable = createDict<WriteMeta>();
    for (const key of keys) metaTable[key] = meta;
    list.set(['entitiesMeta', table], Object.freeze(metaTable), undefined);
    return;
  }
  if (keys.length === 0) return;
  // (Counting the table's keys is itself O(table): only worth it for a write of many rows.)
  if (keys.length > 64 && keys.length * 2 > Object.keys(storedMeta).length) {
    const metaTable = copyDict(storedMeta);
    for (const key of keys) metaTable[key] = meta;
    list.set(['entitiesMeta', table], Object.freeze(metaTable), storedMeta);
    return;
  }
  for (const key of keys) list.set(['entitiesMeta', table, key], meta, storedMeta[key]);
}

/** Which row a write leaves, given the stored one and the ordering decision (docs/Entity.md). */
function merged(existing: Row | undefined, incoming: Row, reorder: boolean, policy: RowPolicy): Row {
  if (existing === undefined) return incoming;
  if (existing === null || incoming === null || Array.isArray(existing) || Array.isArray(incoming)) {
    // A deletion and a row replace each other entirely (no field survives a deletion), as do lists.
    return reorder ? existing : incoming;
  }
  return reorder ? policy.merge(incoming, existing) : policy.merge(existing, incoming);
}

/**
 * Whether an incoming mutation answer and the stored row's mutation answer overlapped: this request
 * started before the stored answer arrived, so the server may have applied them in either order.
 * An entity that orders its own versions (its own `shouldReorder`) decides such pairs itself.
 */
function overlapping(existingMeta: WriteMeta | undefined, meta: WriteMeta, policy: RowPolicy): boolean {
  return (
    meta.sent !== undefined &&
    existingMeta?.sent !== undefined &&
    meta.sent < existingMeta.fetchedAt &&
    policy.delta !== true &&
    policy.versioned !== true
  );
}

function sameMeta(a: WriteMeta, b: WriteMeta): boolean {
  return a === b || (a.fetchedAt === b.fetchedAt && a.date === b.date && a.expiresAt === b.expiresAt);
}
